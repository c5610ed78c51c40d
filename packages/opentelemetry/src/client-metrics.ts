/**
 * The client's other channels as metrics: state changes, connection attempts, watch events and read-pacing
 * waits. Paths are never attributes here: a watch event's path is unbounded (one series per znode).
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import {
  ChannelName,
  type ConnectMessage,
  type ReadPacingMessage,
  type StateMessage,
  type WatchEventMessage,
} from '@zkwire/zk-wire-client';
import { subscribe, unsubscribeAll } from './guarded.js';
import { counter, histogram } from './instruments.js';
import { AttributeName } from './names.js';

/** Subscribes the client metrics; returns the function that unsubscribes them all. */
export function recordClientMetrics(meter: Meter): () => void {
  const stateChanges = counter(meter, 'stateChanges');
  const connectionAttempts = counter(meter, 'connectionAttempts');
  const watchEvents = counter(meter, 'watchEvents');
  const readPacingWaits = counter(meter, 'readPacingWaits');
  const readPacingWaitDuration = histogram(meter, 'readPacingWaitDuration');

  return unsubscribeAll([
    subscribe<StateMessage>(ChannelName.state, (message) => {
      const attributes: Attributes = { [AttributeName.sessionState]: message.sessionState };
      if (message.connectionState !== undefined) {
        attributes[AttributeName.connectionState] = message.connectionState;
      }
      stateChanges.add(1, attributes);
    }),
    subscribe<ConnectMessage>(ChannelName.connect, (message) => {
      const attributes: Attributes = {
        [AttributeName.serverAddress]: message.host,
        [AttributeName.serverPort]: message.port,
      };
      if (message.reason !== undefined) attributes[AttributeName.connectionReason] = message.reason;
      connectionAttempts.add(1, attributes);
    }),
    subscribe<WatchEventMessage>(ChannelName.watchEvent, (message) => {
      watchEvents.add(1, { [AttributeName.watchEventType]: message.event.type });
    }),
    subscribe<ReadPacingMessage>(ChannelName.readPacing, (message) => {
      readPacingWaits.add(1);
      readPacingWaitDuration.record(message.waitMs / 1000);
    }),
  ]);
}
