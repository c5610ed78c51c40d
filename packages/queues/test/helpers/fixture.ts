/**
 * Shared bits of the queue integration tests: a real server and client per test file, clients on a real server,
 * unique queue paths, a client that counts what it sends, and a consumer that stops after so many items.
 */
import { type StartZooKeeperOptions, serverFixture, type ZooKeeperServer } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';
import type { ConsumeOptions, ItemHandler } from '../../src/queue-base.js';
import type { QueueClient } from '../../src/zk-client.js';

let counter = 0;

/** A fresh queue path per test, so tests sharing one server never see each other's items. */
export function uniquePath(label: string): string {
  counter++;
  return `/queues-test/${label}-${process.pid}-${counter}`;
}

/** What {@link startConsuming} consumes from. */
type Consumable<T> = { consume(handler: ItemHandler<T>, options: ConsumeOptions): Promise<void> };

/** A consumer started by {@link startConsuming}. */
export interface Consuming<T> {
  /** The items handed over so far, in the order they came (read it while the consumer runs). */
  readonly items: T[];
  /** Resolves with {@link items} once the consumer stopped. */
  readonly done: Promise<T[]>;
}

/**
 * Starts consuming from `queue` and stops once `count` items were handed over. `onItem` hears each one after
 * it was counted; when it throws, that delivery is a consumer failure.
 */
export function startConsuming<T>(
  queue: Consumable<T>,
  count: number,
  onItem?: ItemHandler<T>,
): Consuming<T> {
  const items: T[] = [];
  const stop = new AbortController();
  const done = queue
    .consume(
      (item, info) => {
        items.push(item);
        if (items.length === count) stop.abort();
        return onItem?.(item, info);
      },
      { signal: stop.signal },
    )
    .then(() => items);
  return { items, done };
}

/** Consumes from `queue` until `count` items were handed over and returns them (see {@link startConsuming}). */
export function consumeItems<T>(queue: Consumable<T>, count: number, onItem?: ItemHandler<T>): Promise<T[]> {
  return startConsuming(queue, count, onItem).done;
}

/** One consumed item with its node name and the consumer's clock (Date.now()) when it was handed over. */
export interface StampedItem<T> {
  item: T;
  name: string;
  at: number;
}

/** {@link consumeItems}, each item stamped with its node name and when it came. */
export async function consumeStamped<T>(queue: Consumable<T>, count: number): Promise<StampedItem<T>[]> {
  const stamped: StampedItem<T>[] = [];
  await consumeItems(queue, count, (item, info) => {
    stamped.push({ item, name: info.name, at: Date.now() });
  });
  return stamped;
}

/** A connected client; the caller closes it. */
export async function connectClient(connectString: string, sessionTimeoutMs = 10_000) {
  return connect({ connectString, sessionTimeoutMs });
}

/** Client methods that send a request to the server (the others only read local state or subscribe). */
const REQUEST_METHODS = new Set(['create', 'delete', 'exists', 'getData', 'getChildren', 'multi', 'setData']);

/** One request a counted client sent: the method, when (Date.now()), and whether it armed a watch. */
export interface LoggedRequest {
  method: string;
  at: number;
  watched: boolean;
}

/**
 * Wraps a client and counts calls per method (to prove "one listing per snapshot"), and logs every request
 * it sends with its time and whether it armed a watch (to prove "woken by timer, no polling").
 */
export function countingClient<C extends QueueClient>(
  client: C,
): { client: C; calls: Map<string, number>; requests: LoggedRequest[] } {
  const calls = new Map<string, number>();
  const requests: LoggedRequest[] = [];
  const proxy = new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(property, (calls.get(property) ?? 0) + 1);
        if (REQUEST_METHODS.has(property)) {
          const options = args[1] as { watch?: unknown } | undefined;
          requests.push({
            method: property,
            at: Date.now(),
            watched: typeof options === 'object' && options !== null && options.watch !== undefined,
          });
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client: proxy, calls, requests };
}

/** What {@link useQueueServer} starts for a test file; read it inside tests and hooks, once beforeAll ran. */
export interface QueueServer {
  readonly server: ZooKeeperServer;
  /** A client connected to {@link server}, opened before the tests and closed after them. */
  readonly client: Awaited<ReturnType<typeof connectClient>>;
}

/** Starts one real server and one client for the calling test file (beforeAll); closes both afterwards. */
export function useQueueServer(options?: StartZooKeeperOptions): QueueServer {
  const fixture = serverFixture(options);
  let client: Awaited<ReturnType<typeof connectClient>> | undefined;
  beforeAll(async () => {
    await fixture.start();
    client = fixture.track(await connectClient(fixture.server.connectString));
  });
  afterAll(fixture.stop);
  return {
    get server() {
      return fixture.server;
    },
    get client() {
      if (client === undefined)
        throw new Error('useQueueServer: no client yet (read it inside a test or hook)');
      return client;
    },
  };
}
