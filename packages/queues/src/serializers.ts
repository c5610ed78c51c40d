/**
 * Item serializers: how one item becomes the bytes inside a batch (Curator's `QueueSerializer<T>`). Java and
 * Node peers of one queue must agree on it; the batch framing around it is always Curator's.
 */
import { CorruptQueueItemError, QueueErrorCode } from './errors.js';

/** Turns items into bytes and back. `deserialize` may throw: the node is then reported as corrupt. */
export interface QueueSerializer<T> {
  serialize(item: T): Uint8Array;
  deserialize(bytes: Buffer): T;
}

/** Raw bytes in, `Buffer` out (a copy, so a consumer may keep it). */
export const bytesSerializer: QueueSerializer<Uint8Array> = {
  serialize: (item) => item,
  deserialize: (bytes) => Buffer.from(bytes),
};

/** UTF-8 text, as Java's `new String(bytes, UTF_8)` / `s.getBytes(UTF_8)`. */
export const stringSerializer: QueueSerializer<string> = {
  serialize: (item) => Buffer.from(item, 'utf8'),
  deserialize: (bytes) => bytes.toString('utf8'),
};

/** JSON in UTF-8 (Jackson's default encoding on the Java side). `undefined` cannot be sent. */
export function jsonSerializer<T = unknown>(): QueueSerializer<T> {
  return {
    serialize(item) {
      const text = JSON.stringify(item);
      if (text === undefined) throw new TypeError('jsonSerializer: the item has no JSON form (undefined?)');
      return Buffer.from(text, 'utf8');
    },
    deserialize: (bytes) => JSON.parse(bytes.toString('utf8')) as T,
  };
}

/** Deserializes one item, turning any failure into a {@link CorruptQueueItemError} that names the node. */
export function deserializeItem<T>(serializer: QueueSerializer<T>, bytes: Buffer, path: string): T {
  try {
    return serializer.deserialize(bytes);
  } catch (cause) {
    throw new CorruptQueueItemError(
      QueueErrorCode.UNDESERIALIZABLE_ITEM,
      `queue item at ${path} could not be deserialized: ${(cause as Error)?.message ?? String(cause)}`,
      { path, cause },
    );
  }
}
