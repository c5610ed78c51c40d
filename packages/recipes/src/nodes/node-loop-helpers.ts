/** Small pieces of the node recipes' background loops: client state tests, a cancellable sleep, a one-shot result. */
import { backoffMs, sleep } from '@zkwire/common';
import type { RecipeClient } from '../internal-common/zk-client.js';

/** True while the client has a usable connection. */
export function isConnectedNow(client: RecipeClient): boolean {
  return client.state === 'connected' || client.state === 'read-only';
}

/** True once the client will never connect again: closed, or expired without autoRecreateSession. */
export function isClientDone(client: RecipeClient): boolean {
  return client.state === 'closed' || client.state === 'expired';
}

/** Resolves after `ms`, or at once when `signal` aborts (its timer is cleared then). Never rejects. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, { signal }).catch(() => {});
}

/** A promise settled once, by whichever of its callers comes first. */
export class SettleOnce<T> {
  readonly promise: Promise<T>;
  #resolve!: (value: T) => void;
  #settled = false;

  constructor() {
    this.promise = new Promise<T>((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** True once settled. */
  get settled(): boolean {
    return this.#settled;
  }

  /** Resolves the promise with `value`, unless it already was. */
  settle(value: T): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(value);
  }
}

/** The backoff of the node loops: from 50 ms, at most 2 s. */
const NODE_LOOP_BACKOFF = { baseMs: 50, maxMs: 2_000 };

/** The pause before retry number `failures` (from the second failure on), on the one backoff curve. */
export function retryDelayMs(failures: number): number {
  return backoffMs(failures - 2, NODE_LOOP_BACKOFF);
}
