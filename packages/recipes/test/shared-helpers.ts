/** Helpers of the barrier, election and counter integration tests: real clients and small polling waits. */
import { connect } from '@zkwire/zk-wire-client';
import type { ValueClient } from '../src/shared/value-client.js';

/** A connected client as the recipes see it, plus what the tests use besides. */
export type Client = ValueClient & {
  close(): Promise<void>;
  readonly sessionPassword: Uint8Array;
};

/** Connects a new client (its own connection and session). */
export async function open(connectString: string, sessionTimeoutMs = 30_000): Promise<Client> {
  const client: ValueClient = await connect({ connectString, sessionTimeoutMs });
  return client as Client;
}

/** Closes clients, ignoring ones already closed. */
export async function closeAll(clients: readonly (Client | undefined)[]): Promise<void> {
  await Promise.all(clients.map((client) => client?.close().catch(() => {})));
}

/** Polls `check` until it is true (a state the test waits for on the server); fails after `attempts` tries. */
export async function eventually(check: () => Promise<boolean> | boolean, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}

/** The children of `path`, or [] when it does not exist. */
export async function childrenOf(client: Client, path: string): Promise<string[]> {
  try {
    return await client.getChildren(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'NONODE') return [];
    throw error;
  }
}

/** A promise with its resolver, for "this happened" flags in tests. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Settles within `ms` with 'pending' if `promise` has not settled by then (to show that a call still blocks). */
export function stateAfter<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([
    promise,
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}
