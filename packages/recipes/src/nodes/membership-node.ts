/**
 * The member node of a {@link GroupMember}: one EPHEMERAL node, kept present with its current data (the part
 * of Curator's PersistentNode that GroupMember uses: EPHEMERAL mode, no protection, container parents).
 * Kept in a file of its own so that a full PersistentNode can take its place later.
 *
 * - created in the background at `start()`; `waitForInitialCreate` waits for it;
 * - NodeExists: the node is adopted and our data written to it (Curator does the same);
 * - deleted by someone else: an exists watch sees it and the node is created again;
 * - session expiry (the server deleted it): created again on the new session. Unlike Curator, a plain
 *   reconnect does not rewrite the node (the session and the node survived; the restored exists watch reports
 *   a deletion that happened meanwhile), so peers see no CHANGED event per reconnect;
 * - `close()` removes the watch and the connection listener, and deletes the node.
 */

import { waitFor } from '@zkwire/common';
import type { CacheClient } from '../cache/cache-client.js';
import type { CacheWatchEvent } from '../cache/cache-types.js';
import { type CompressionProvider, compressData } from '../internal-common/compression.js';
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { Deadline, type WaitOptions } from '../internal-common/deadline.js';
import { IllegalRecipeStateError } from '../internal-common/recipe-errors.js';
import { onClientState } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode, isRetryable } from '../internal-common/zk-errors.js';

/** An EPHEMERAL node this client keeps present. */
export class MembershipNode {
  readonly path: string;
  private readonly client: CacheClient;
  private data: Uint8Array;
  private state: 'latent' | 'started' | 'closed' = 'latent';
  private created = false;
  private creating = false;
  private again = false;
  private watchArmed = false;
  private sessionLost = false;
  private stopStates: (() => void) | undefined;
  private readonly createdWaiters = new Set<() => void>();
  private readonly watcher = (event: CacheWatchEvent) => this.onWatchEvent(event);
  /** Reported here: failures a reconnect will not repair (NoAuth, ...). */
  onError: (error: unknown) => void = () => {};

  /** Compresses what is written (GroupMember's `compression`); `currentData` stays uncompressed. */
  private readonly compression: CompressionProvider | undefined;

  constructor(client: CacheClient, path: string, data: Uint8Array, compression?: CompressionProvider) {
    this.client = client;
    this.path = path;
    this.data = data;
    this.compression = compression;
  }

  private onWire(data: Uint8Array): Uint8Array {
    return compressData(this.compression, this.path, data);
  }

  /** True once the node was created (or adopted) at least once. */
  get isCreated(): boolean {
    return this.created;
  }

  /** The data the node holds (or will hold once created). */
  get currentData(): Uint8Array {
    return this.data;
  }

  /** Starts keeping the node present; the first create runs in the background. */
  start(): void {
    if (this.state !== 'latent')
      throw new IllegalRecipeStateError(`member node ${this.path} already started`);
    this.state = 'started';
    this.stopStates = onClientState(this.client, (state) => {
      if (state === 'lost') {
        this.sessionLost = true;
        this.watchArmed = false; // the session's watches are gone with it
      } else if (state === 'connected' || state === 'reconnected') {
        const lost = this.sessionLost;
        this.sessionLost = false;
        if (lost || !this.watchArmed) this.ensure();
      }
    });
    this.ensure();
  }

  /** Waits for the first create: true once done, false after `timeoutMs`. */
  async waitForInitialCreate(options?: WaitOptions): Promise<boolean> {
    const deadline = Deadline.of(options);
    if (this.created) return true;
    if (this.state === 'closed') return false;
    const woken = await waitFor(
      (wake) => {
        this.createdWaiters.add(wake);
        return () => this.createdWaiters.delete(wake);
      },
      { timeoutMs: deadline.bounded ? deadline.remainingMs() : undefined, signal: deadline.signal },
    );
    return woken && this.created;
  }

  /** New data for the node: written now if it exists, and used for every later re-create. */
  async setData(data: Uint8Array): Promise<void> {
    this.data = data;
    if (this.state !== 'started' || !this.created) return;
    try {
      await this.client.setData(this.path, this.onWire(data));
    } catch (error) {
      // Gone meanwhile: the watch re-creates it with these bytes. Disconnected: the resync writes them.
      if (!isNoNode(error) && !isRetryable(error)) throw error;
    }
  }

  /** Stops keeping the node: removes the watch and the listener, deletes the node (NoNode ignored). */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasStarted = this.state === 'started';
    this.state = 'closed';
    this.stopStates?.();
    this.stopStates = undefined;
    for (const waiter of [...this.createdWaiters]) waiter();
    if (!wasStarted) return;
    if (this.watchArmed) {
      this.watchArmed = false;
      await this.client
        .removeWatches(this.path, 'data', { watcher: this.watcher, local: true })
        .catch(() => {}); // NoWatcher: it fired meanwhile; client closed: no watch survives that either
    }
    await this.deleteNode();
  }

  private async deleteNode(): Promise<void> {
    try {
      await this.client.delete(this.path);
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  }

  /** Creates the node (or adopts it) and arms the exists watch; one run at a time, repeated if asked meanwhile. */
  private ensure(): void {
    if (this.state !== 'started') return;
    if (this.creating) {
      this.again = true;
      return;
    }
    this.creating = true;
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.createOrAdopt();
        if (this.state !== 'started') return;
        const stat = await this.client.exists(this.path, { watch: this.watcher });
        this.watchArmed = true;
        if (stat === null) this.again = true; // deleted between the create and the watch
      } while (this.again && this.state === 'started');
    } catch (error) {
      // Disconnected or expired: the next (re)connection calls ensure() again.
      const code = (error as { code?: unknown } | null)?.code;
      if (!isRetryable(error) && code !== 'SESSIONEXPIRED' && code !== 'CLIENTCLOSED') this.onError(error);
    } finally {
      this.creating = false;
    }
  }

  private async createOrAdopt(): Promise<void> {
    const data = this.onWire(this.data);
    try {
      await createWithContainerParents(this.client, this.path, data, 'ephemeral');
    } catch (error) {
      if (!isNodeExists(error)) throw error;
      await this.client.setData(this.path, data); // adopt it, as Curator does, with our data
    }
    if (this.state === 'closed') {
      await this.deleteNode(); // closed while the create was in flight
      return;
    }
    this.created = true;
    for (const waiter of [...this.createdWaiters]) waiter();
  }

  private onWatchEvent(event: CacheWatchEvent): void {
    this.watchArmed = false;
    if (this.state !== 'started') return;
    if (event.type === 'deleted') this.ensure();
    else if (event.type === 'dataChanged' || event.type === 'created') {
      this.client.exists(this.path, { watch: this.watcher }).then(
        (stat) => {
          this.watchArmed = true;
          if (stat === null) this.ensure();
        },
        () => {}, // disconnected: re-armed on reconnection
      );
    }
  }
}
