/**
 * SharedCount: an int32 every participant sees (Curator's `SharedCount`, curator/counters.md §12.2), stored
 * as exactly 4 big-endian bytes so a Java SharedCount or DistributedAtomicInteger on the same path reads it.
 */
import { EventEmitter } from 'node:events';
import { checkInt32, decodeInt32, encodeInt32 } from '../internal-common/big-endian-codec.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { SharedValue, type SharedValueOptions, type VersionedValue } from './shared-value.js';
import type { ValueClient } from './value-client.js';

/** Events of {@link SharedCount}. */
export interface SharedCountEvents {
  /** The count changed. */
  change: [count: number];
  /** A background re-read failed, or the node held bytes that are not an int32. */
  error: [error: unknown];
}

/** A shared int32 counter with change events and compare-and-set on the data version. */
export class SharedCount extends EventEmitter<SharedCountEvents> implements AsyncDisposable {
  private readonly shared: SharedValue;

  /** @param seed the count the node is created with when it does not exist yet. */
  constructor(client: ValueClient, path: string, seed: number, options: SharedValueOptions = {}) {
    super();
    this.shared = new SharedValue(client, path, encodeInt32(checkInt32(seed, 'seed')), options);
    const reporter = new Reporter<SharedCountEvents>(this, client, `SharedCount ${this.shared.path}`);
    this.shared.on('change', (bytes) => {
      let count: number;
      try {
        count = decodeInt32(bytes, this.shared.path);
      } catch (error) {
        reporter.background(error, 'the node does not hold an int32');
        return;
      }
      reporter.emit('change', count);
    });
    this.shared.on('error', (error) => reporter.background(error, 'a background read failed'));
  }

  /** The znode path. */
  get path(): string {
    return this.shared.path;
  }

  /** Creates the node with the seed if needed and reads the count. */
  start(): Promise<void> {
    return this.shared.start();
  }

  /** The last count read or written. */
  get count(): number {
    return decodeInt32(this.shared.value, this.path);
  }

  /** The last count with the data version it was read at, for {@link SharedCount.trySetCount}. */
  get versionedValue(): VersionedValue<number> {
    const { value, version } = this.shared.versionedValue;
    return { value: decodeInt32(value, this.path), version };
  }

  /** Writes the count unconditionally. */
  async setCount(count: number): Promise<void> {
    return this.shared.setValue(encodeInt32(checkInt32(count, 'count')));
  }

  /** Writes `count` only if nobody wrote since `previous` was read; false otherwise (the new count is then read). */
  async trySetCount(previous: VersionedValue<number>, count: number): Promise<boolean> {
    const newBytes = encodeInt32(checkInt32(count, 'count'));
    return this.shared.trySetValue(
      { value: encodeInt32(checkInt32(previous.value, 'previous.value')), version: previous.version },
      newBytes,
    );
  }

  /** Stops watching; the node stays. Idempotent. */
  close(): Promise<void> {
    return this.shared.close();
  }

  /** Same as {@link SharedCount.close}, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
