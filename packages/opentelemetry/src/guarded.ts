/**
 * Channel subscribers run synchronously inside the publisher, here the client's own call or settle step, and
 * Node rethrows a subscriber's exception on the next tick, where nothing catches it. An exporter or SDK bug
 * must never take the process down or break a ZooKeeper call, so every handler runs through this guard and
 * its failures go to OpenTelemetry's diagnostic logger instead.
 */
import diagnostics from 'node:diagnostics_channel';
import { diag } from '@opentelemetry/api';

/** Wraps `handler` so that it never throws; a failure is reported through `diag.error`. */
export function guarded<T>(what: string, handler: (message: T) => void): (message: T) => void {
  return (message) => {
    try {
      handler(message);
    } catch (error) {
      diag.error(`@zkwire/opentelemetry: ${what} failed`, error);
    }
  };
}

/** Subscribes a guarded handler to a plain channel; returns the function that unsubscribes it. */
export function subscribe<T>(channel: string, handler: (message: T) => void): () => void {
  const listener = guarded(channel, handler) as (message: unknown) => void;
  diagnostics.subscribe(channel, listener);
  return () => {
    diagnostics.unsubscribe(channel, listener);
  };
}

/** The function that calls every one of `unsubscribers`. */
export function unsubscribeAll(unsubscribers: (() => void)[]): () => void {
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
