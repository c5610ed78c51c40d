/**
 * SharedValue: a value every participant sees, kept in one PERSISTENT znode (Curator's
 * `org.apache.curator.framework.recipes.shared.SharedValue`, curator/counters.md §12.2).
 *
 * `start()` creates the node with the seed bytes (NodeExists ignored) and reads it with a watch that is re-armed
 * on every change; the value is re-read on every (re)connection. The version is the znode's data version, so
 * `trySetValue` is a compare-and-set that fails when anyone wrote in between.
 *
 * The data version wraps from 2147483647 to -2147483648, so reads are ordered by the node's `mzxid`, never by
 * the version (Curator 5.7, CURATOR-688); and a version of -1 (reached after the wrap) cannot be
 * compared-and-set on, since the server takes -1 as "any version" (ZOOKEEPER-4743).
 */
import { EventEmitter } from 'node:events';
import {
  type CompressionProvider,
  compressData,
  decompressData,
  type RecipeCompression,
  resolveCompression,
} from '../internal-common/compression.js';
import { createWithContainerParents } from '../internal-common/create-with-parents.js';
import { IllegalRecipeStateError, InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { validateRecipePath } from '../internal-common/validate.js';
import { onClientState, type RecipeConnectionState } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode } from '../internal-common/zk-errors.js';
import type { ValueClient } from './value-client.js';

/** The data version the server takes as "any version" in a setData. */
const ANY_VERSION = -1;

/** A value with the data version it was read at (Curator's VersionedValue). */
export interface VersionedValue<T> {
  /** The decoded value. */
  readonly value: T;
  /** The znode's data version (`stat.version`) the value was read or written at; it wraps past 2^31 - 1. */
  readonly version: number;
}

/** Options of {@link SharedValue} and {@link SharedCount}. */
export interface SharedValueOptions {
  /**
   * Compress the node's data as a Curator client with `enableCompression()` does (CURATOR-725): `'gzip'`
   * reads and writes what Curator's GzipCompressionProvider does; `value` stays uncompressed.
   */
  compression?: RecipeCompression;
}

/** Events of {@link SharedValue}. */
export interface SharedValueEvents {
  /** The value changed (read after a watch, a reconnection or our own write). */
  change: [value: Uint8Array];
  /** A background re-read failed; the last known value is kept. */
  error: [error: unknown];
}

/** A shared byte value in one znode, with change events and compare-and-set on the data version. */
export class SharedValue extends EventEmitter<SharedValueEvents> implements AsyncDisposable {
  /** The value's znode. */
  readonly path: string;
  private readonly client: ValueClient;
  private readonly seed: Uint8Array;
  private readonly compression: CompressionProvider | undefined;
  private current: VersionedValue<Uint8Array> | undefined;
  private lastMzxid = -1n;
  private state: 'latent' | 'started' | 'closed' = 'latent';
  private stopStates: (() => void) | undefined;
  /** Calls our listeners (one that throws changes nothing here) and reports failed background reads. */
  private readonly reporter: Reporter<SharedValueEvents>;
  private readonly watcher = (event: { type: string }) => {
    if (this.state === 'started' && event.type !== 'dataWatchRemoved') this.refreshInBackground();
  };

  /** @param seed the bytes the node is created with when it does not exist yet. */
  constructor(client: ValueClient, path: string, seed: Uint8Array, options: SharedValueOptions = {}) {
    super();
    this.client = client;
    this.path = validateRecipePath(path);
    this.reporter = new Reporter(this, client, `SharedValue ${this.path}`);
    if (!(seed instanceof Uint8Array)) throw new InvalidRecipeArgumentError('seed', 'must be a Uint8Array');
    this.seed = seed;
    if (typeof options !== 'object' || options === null) {
      throw new InvalidRecipeArgumentError('options', 'must be an object');
    }
    this.compression = resolveCompression(options.compression);
  }

  /** Creates the node if needed and reads the current value with a watch. */
  async start(): Promise<void> {
    if (this.state !== 'latent') throw new IllegalRecipeStateError('SharedValue was already started');
    this.state = 'started';
    this.stopStates = onClientState(this.client, (state: RecipeConnectionState) => {
      if (state === 'connected' || state === 'reconnected' || state === 'read-only')
        this.refreshInBackground();
    });
    try {
      await createWithContainerParents(this.client, this.path, this.onWire(this.seed), 'persistent');
    } catch (error) {
      if (!isNodeExists(error)) {
        await this.close();
        throw error;
      }
    }
    await this.refresh();
  }

  /** The last value read or written, with its version. */
  get versionedValue(): VersionedValue<Uint8Array> {
    if (this.current === undefined) throw new IllegalRecipeStateError('SharedValue is not started');
    return this.current;
  }

  /** The last value read or written. */
  get value(): Uint8Array {
    return this.versionedValue.value;
  }

  /** Writes the value unconditionally. */
  async setValue(value: Uint8Array): Promise<void> {
    this.checkWritable(value);
    const stat = await this.client.setData(this.path, this.onWire(value));
    this.accept(value, stat.version, stat.mzxid);
  }

  /**
   * Writes `value` only if the node still holds `previous` (same data version and bytes); false when someone
   * wrote in between, after which the new value has been read.
   * @throws InvalidRecipeArgumentError when `previous.version` is -1 (the version wrapped round to the value the
   *   server reads as "any version", so no compare-and-set is possible until the next write; Curator's
   *   IllegalTrySetVersionException). Nothing is sent.
   */
  async trySetValue(previous: VersionedValue<Uint8Array>, value: Uint8Array): Promise<boolean> {
    this.checkWritable(value);
    const current = this.versionedValue;
    if (previous.version !== current.version || !sameBytes(previous.value, current.value)) return false;
    if (previous.version === ANY_VERSION) {
      throw new InvalidRecipeArgumentError(
        'previous.version',
        `is -1 (the data version of ${this.path} wrapped round), which the server takes as any version; ` +
          'a compare-and-set is not possible until the node is written again',
      );
    }
    try {
      const stat = await this.client.setData(this.path, this.onWire(value), { version: previous.version });
      this.accept(value, stat.version, stat.mzxid);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'BADVERSION' && !isNoNode(error)) throw error;
      await this.refresh();
      return false;
    }
  }

  /** Stops watching; the node stays. Idempotent. */
  async close(): Promise<void> {
    this.state = 'closed';
    this.stopStates?.();
    this.stopStates = undefined;
  }

  /** Same as {@link SharedValue.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private onWire(value: Uint8Array): Uint8Array {
    return compressData(this.compression, this.path, value);
  }

  private checkWritable(value: Uint8Array): void {
    if (!(value instanceof Uint8Array)) throw new InvalidRecipeArgumentError('value', 'must be a Uint8Array');
    if (this.state !== 'started') throw new IllegalRecipeStateError('SharedValue is not started');
  }

  private refreshInBackground(): void {
    this.refresh().catch((error: unknown) => {
      if (this.state === 'started') this.reporter.background(error, 'a background read failed');
    });
  }

  private async refresh(): Promise<void> {
    try {
      const { data, stat } = await this.client.getData(this.path, { watch: this.watcher });
      this.accept(decompressData(this.compression, this.path, data), stat.version, stat.mzxid);
    } catch (error) {
      if (!isNoNode(error)) throw error;
      // Deleted under us: wait for it to come back rather than lose track of it.
      const stat = await this.client.exists(this.path, { watch: this.watcher });
      if (stat !== null) await this.refresh();
    }
  }

  /** Keeps only newer values: answers to reads that crossed a write can arrive out of order. */
  private accept(data: Uint8Array, version: number, mzxid: bigint): void {
    if (mzxid < this.lastMzxid) return;
    const changed =
      this.current === undefined || this.current.version !== version || mzxid !== this.lastMzxid;
    this.lastMzxid = mzxid;
    this.current = { value: Uint8Array.from(data), version };
    if (changed && this.state === 'started') this.reporter.emit('change', this.current.value);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
