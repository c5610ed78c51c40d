/**
 * Lock revocation, as Curator's (`Revocable`, `RevocationListener`, `Revoker.attemptRevoke`): someone who
 * wants a lock asks its holder to give it up by writing `__REVOKE__` into the holder's node; a holder that
 * made its lock revocable watches its own node's data (from the moment its node exists, while waiting too,
 * as Curator's) and calls its listener when the marker arrives. Revocation is cooperative: the listener
 * decides, usually by releasing.
 */
import type { WatchEvent } from '@zkwire/zk-wire-client';
import { Deadline } from '../internal-common/deadline.js';
import { validateRecipePath } from '../internal-common/validate.js';
import { Wakeup } from '../internal-common/wakeup.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNoNode, isRetryable } from '../internal-common/zk-errors.js';

/** The bytes Curator's Revoker writes (`LockInternals.REVOKE_MESSAGE`). */
export const REVOKE_MESSAGE: Uint8Array = new TextEncoder().encode('__REVOKE__');

/** Called when a revocation of the lock is requested (Curator's `RevocationListener`). */
export type RevocationListener<L> = (lock: L) => void | Promise<void>;

/** The client a Revoker needs: one that can set data. */
export interface RevokerClient {
  setData(path: string, data: Uint8Array): Promise<unknown>;
}

function isRevokeMessage(data: Uint8Array): boolean {
  return data.length === REVOKE_MESSAGE.length && data.every((byte, i) => byte === REVOKE_MESSAGE[i]);
}

/** Curator's `Revoker`. */
export const Revoker = {
  /**
   * Asks the holder of the lock node `path` (from `getParticipantNodes()`) to release it; a node already gone
   * is no error. Only a holder that made its lock revocable hears it.
   */
  async attemptRevoke(client: RevokerClient, path: string): Promise<void> {
    validateRecipePath(path);
    try {
      await client.setData(path, REVOKE_MESSAGE);
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  },
} as const;

/**
 * Watches one contender node's data for the revoke marker (Curator's `revocableWatcher`): a getData with a
 * watch, read again at every data change and after a reconnection, until the node is gone or `stop()`.
 */
export class RevocationWatch {
  readonly #client: RecipeClient;
  readonly #path: string;
  readonly #onRevoke: () => void;
  #stopped = false;

  constructor(client: RecipeClient, path: string, onRevoke: () => void) {
    this.#client = client;
    this.#path = path;
    this.#onRevoke = onRevoke;
  }

  /** Reads the node with a watch; the loop runs in the background until the node is gone or stopped. */
  start(): void {
    void this.#loop();
  }

  stop(): void {
    this.#stopped = true;
  }

  async #loop(): Promise<void> {
    // As Curator's: the first read only arms the watch; the data is looked at when a change fired it.
    let changed = false;
    while (!this.#stopped) {
      const wakeup = new Wakeup(this.#client);
      let changedNow = false;
      const watch = (event: WatchEvent): void => {
        if (event.type === 'dataChanged') changedNow = true;
        wakeup.watcher(event);
      };
      let data: Uint8Array;
      try {
        ({ data } = await this.#client.getData(this.#path, { watch }));
      } catch (error) {
        wakeup.dispose();
        if (!isRetryable(error) || this.#client.state === 'closed' || this.#client.state === 'expired')
          return;
        await this.#client.connected().catch(() => {});
        continue;
      }
      if (this.#stopped) {
        wakeup.dispose();
        return;
      }
      if (changed && isRevokeMessage(data)) this.#onRevoke();
      await wakeup.wait(Deadline.of(undefined));
      changed = changedNow;
    }
  }
}
