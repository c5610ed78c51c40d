/**
 * A changing maximum for the semaphore: Curator's SharedCountReader, structurally. A SharedCount from this
 * package fits, as does anything with `getCount()` and a `'change'` event; `watchCountNode` reads a
 * SharedCount node (4-byte big-endian int32, curator/counters.md §12.2) directly.
 */
import { EventEmitter } from 'node:events';
import { Reporter } from './safe-emit.js';
import type { RecipeClient } from './zk-client.js';
import { isClientClosed, isRetryable, isSessionExpired } from './zk-errors.js';

/**
 * A count that can change under us (Curator's SharedCountReader): either `getCount()` or a `count` getter
 * (this package's SharedCount), plus a `'change'` event carrying the new count.
 */
export type SharedCountReader = ({ getCount(): number } | { readonly count: number }) & {
  on(event: 'change', listener: (count: number) => void): unknown;
  off?(event: 'change', listener: (count: number) => void): unknown;
  removeListener?(event: 'change', listener: (count: number) => void): unknown;
};

/** The current value of a count source. */
export function readCount(source: SharedCountReader): number {
  return 'getCount' in source && typeof source.getCount === 'function'
    ? source.getCount()
    : (source as { readonly count: number }).count;
}

/** Subscribes to a count's changes; returns the function that unsubscribes. */
export function onCountChange(source: SharedCountReader, listener: (count: number) => void): () => void {
  source.on('change', listener);
  return () => {
    if (typeof source.off === 'function') source.off('change', listener);
    else source.removeListener?.('change', listener);
  };
}

/** Decodes SharedCount bytes: exactly 4 bytes, big-endian signed int32. */
export function decodeSharedCount(bytes: Uint8Array): number {
  if (bytes.length !== 4) throw new RangeError(`a SharedCount node holds 4 bytes, found ${bytes.length}`);
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, false);
}

/** Events of a {@link CountNodeReader}. */
export interface CountNodeReaderEvents {
  /** The count changed. */
  change: [count: number];
  /** A re-read failed other than by a connection problem (the node deleted, not 4 bytes), or a listener threw. */
  error: [error: unknown];
}

/** A read-only view of a SharedCount node, kept current by a re-armed getData watch. */
export class CountNodeReader extends EventEmitter<CountNodeReaderEvents> {
  readonly #client: RecipeClient;
  readonly #path: string;
  readonly #reporter: Reporter<CountNodeReaderEvents>;
  #count = 0;
  #closed = false;

  private constructor(client: RecipeClient, path: string) {
    super();
    this.#client = client;
    this.#path = path;
    this.#reporter = new Reporter(this, client, `CountNodeReader ${path}`);
  }

  /** Reads the node at `path` (which must exist) and follows its changes until `close()`. */
  static async open(client: RecipeClient, path: string): Promise<CountNodeReader> {
    const reader = new CountNodeReader(client, path);
    await reader.#read();
    return reader;
  }

  /** The count last read (kept current by a watch). */
  getCount(): number {
    return this.#count;
  }

  async #read(): Promise<void> {
    if (this.#closed) return;
    const { data } = await this.#client.getData(this.#path, { watch: () => this.#follow() });
    const count = decodeSharedCount(data);
    if (count !== this.#count) {
      this.#count = count;
      this.#reporter.emit('change', count);
    }
  }

  /** Re-reads after a watch event (arming the next watch); a failure is repaired or reported, never lost. */
  #follow(): void {
    this.#read().catch((error: unknown) => {
      if (this.#closed || isClientClosed(error)) return;
      if (isRetryable(error) || isSessionExpired(error)) {
        // The read did not arm a watch: read again once connected (rejects when the client is done).
        this.#client.connected().then(
          () => this.#follow(),
          () => {},
        );
      } else this.#reporter.background(error, 'a re-read failed; the count is no longer followed');
    });
  }

  /** Stops following the node. */
  close(): void {
    this.#closed = true;
  }
}
