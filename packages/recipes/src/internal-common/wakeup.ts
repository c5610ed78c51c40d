/**
 * A one-shot wake-up for a waiter: its `watcher` is handed to the read that decides whether to wait (so the
 * watch is armed atomically with that read), and connection changes that may have dropped the watch
 * (session lost, reconnection) also wake it, so the waiter re-reads instead of hanging.
 *
 * Waiting on the one node that must go before us (curator/locks.md §2.3) is one such round:
 * `getData(predecessor, watch)`, the watch armed by the same request as the read, so no deletion can slip
 * between the two. `getData` rather than `exists`, so no watch is left on a node that is already gone.
 */
import type { Deadline } from '@zkwire/common';
import { onClientState, type RecipeClient, type RecipeWatcher } from './zk-client.js';
import { isNoNode } from './zk-errors.js';

/** A single wake-up; make a new one for every read-then-wait round. */
export class Wakeup {
  readonly #woken: Promise<void>;
  #wake!: () => void;
  #unsubscribe: () => void;
  /** How many watch events reached this wake-up (herd tests count them). */
  watchEvents = 0;

  constructor(client: RecipeClient) {
    this.#woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
    this.#unsubscribe = onClientState(client, (state) => {
      if (state === 'lost' || state === 'reconnected') this.#wake();
    });
  }

  /** The watch callback to pass to the read. */
  readonly watcher: RecipeWatcher = () => {
    this.watchEvents += 1;
    this.#wake();
  };

  /** Wakes the waiter from outside (a changed lease count, a local release). */
  wake(): void {
    this.#wake();
  }

  /** Waits for the wake-up within the deadline; rejects with DeadlineExpired or the abort reason. */
  async wait(deadline: Deadline): Promise<void> {
    try {
      await deadline.guard(this.#woken);
    } finally {
      this.dispose();
    }
  }

  /** Stops listening to connection states. */
  dispose(): void {
    this.#unsubscribe();
  }
}

/**
 * Resolves when the predecessor at `path` changed, was deleted or was already gone, or the connection changed
 * in a way that calls for a re-read. Rejects with DeadlineExpired or the abort reason.
 */
export async function waitForPredecessor(
  client: RecipeClient,
  path: string,
  deadline: Deadline,
): Promise<void> {
  const wakeup = new Wakeup(client);
  try {
    await deadline.guard(client.getData(path, { watch: wakeup.watcher }));
  } catch (error) {
    wakeup.dispose();
    if (isNoNode(error)) return;
    throw error;
  }
  await wakeup.wait(deadline);
}
