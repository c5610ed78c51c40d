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
import { subscribe } from './guarded.js';
import { AttributeName, MetricName } from './names.js';

/** Read-pacing waits are 1 to 50 ms (the client's `readCoalescing.delayMs` range), in seconds. */
const READ_PACING_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05];

/** Subscribes the client metrics; returns the function that unsubscribes them all. */
export function recordClientMetrics(meter: Meter): () => void {
  const stateChanges = meter.createCounter(MetricName.stateChanges, {
    unit: '{change}',
    description: 'Session state changes of ZooKeeper clients.',
  });
  const connectionAttempts = meter.createCounter(MetricName.connectionAttempts, {
    unit: '{attempt}',
    description: 'Connection attempts of ZooKeeper clients, per server.',
  });
  const watchEvents = meter.createCounter(MetricName.watchEvents, {
    unit: '{event}',
    description: 'Watch events read from ZooKeeper servers.',
  });
  const readPacingWaits = meter.createCounter(MetricName.readPacingWaits, {
    unit: '{wait}',
    description: 'Waits between socket reads decided by read pacing under load.',
  });
  const readPacingWaitDuration = meter.createHistogram(MetricName.readPacingWaitDuration, {
    unit: 's',
    description: 'Length of each read-pacing wait.',
    advice: { explicitBucketBoundaries: READ_PACING_BUCKETS },
  });

  const unsubscribers = [
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
  ];
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
