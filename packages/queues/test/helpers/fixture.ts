/**
 * Shared bits of the queue integration tests: clients on a real server, unique queue paths, small waits.
 */
import { connect } from '@zkwire/zk-wire-client';
import type { QueueClient } from '../../src/zk-client.js';

let counter = 0;

/** A fresh queue path per test, so tests sharing one server never see each other's items. */
export function uniquePath(label: string): string {
  counter++;
  return `/queues-test/${label}-${process.pid}-${counter}`;
}

/** A connected client; the caller closes it. */
export async function connectClient(connectString: string, sessionTimeoutMs = 10_000) {
  return connect({ connectString, sessionTimeoutMs });
}

/** Resolves once `predicate` holds, checking on every event-loop turn for up to `timeoutMs` (then throws). */
export async function eventually(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Wraps a client and counts calls per method (to prove "one listing per snapshot"). */
export function countingClient<C extends QueueClient>(client: C): { client: C; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: proxy, calls };
}
