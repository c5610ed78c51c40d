/**
 * The errors this package raises itself. Errors from ZooKeeper (no node, connection loss, session expired, ...)
 * come from `@zkwire/zk-wire-client` unchanged.
 */
import { errorFamilyMarker, hasErrorMarker, invalidArgumentMessage, markError } from '@zkwire/common';

const MARKER = errorFamilyMarker('queues');

/** Stable codes of {@link QueueError}, so callers can branch without `instanceof`. */
export const QueueErrorCode = {
  /** A batch node's bytes are not a Curator batch (bad version, bad opcode, truncated, negative length). */
  CORRUPT_ITEM: 'CORRUPT_ITEM',
  /** The serializer could not turn an item's bytes into a value. */
  UNDESERIALIZABLE_ITEM: 'UNDESERIALIZABLE_ITEM',
  /** A bounded queue stayed full until the put's timeout. */
  QUEUE_FULL: 'QUEUE_FULL',
  /** The queue (or the consumer) was closed. */
  QUEUE_CLOSED: 'QUEUE_CLOSED',
  /** `remove()` / `element()` of an empty simple queue. */
  QUEUE_EMPTY: 'QUEUE_EMPTY',
  /** An argument was refused before anything was sent. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** A call the object's state does not allow, such as starting a QueueSharder a second time. */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** The children of the queue node would not fit in one reply frame. */
  LISTING_TOO_LARGE: 'LISTING_TOO_LARGE',
  /** A wait ended because its AbortSignal fired or its timeout elapsed. */
  ABORTED: 'ABORTED',
} as const;

/** One of the {@link QueueErrorCode} values. */
export type QueueErrorCode = (typeof QueueErrorCode)[keyof typeof QueueErrorCode];

/** The base error of `@zkwire/queues`, with a stable string {@link QueueErrorCode}. */
export class QueueError extends Error {
  override name = 'QueueError';
  /** Stable code to branch on. */
  readonly code: QueueErrorCode;
  /** The znode concerned, where there is one. */
  readonly path: string | undefined;

  constructor(code: QueueErrorCode, message: string, options?: { path?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options?.path;
    markError(this, MARKER);
  }

  /** True for any QueueError, even from another copy of this package (ESM and CJS side by side). */
  static isInstance(error: unknown): error is QueueError {
    return hasErrorMarker(error, MARKER);
  }
}

/** A batch node that cannot be read: reported with its path and moved out of the queue. */
export class CorruptQueueItemError extends QueueError {
  override name = 'CorruptQueueItemError';
  /** Where the node's bytes were moved (`undefined` when they were deleted or the move failed). */
  movedTo: string | undefined;

  constructor(
    code: typeof QueueErrorCode.CORRUPT_ITEM | typeof QueueErrorCode.UNDESERIALIZABLE_ITEM,
    message: string,
    options?: { path?: string; cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Thrown for a bad argument, before anything is sent to the server. */
export class QueueArgumentError extends QueueError {
  override name = 'QueueArgumentError';
  /** The name of the refused argument. */
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(QueueErrorCode.INVALID_ARGUMENT, invalidArgumentMessage(argument, problem));
    this.argument = argument;
  }
}

/** True when `error` is a {@link QueueError} with the given code. */
export function isQueueError(error: unknown, code?: QueueErrorCode): error is QueueError {
  return QueueError.isInstance(error) && (code === undefined || error.code === code);
}

/** The queues' bad-argument error, in the shape @zkwire/common's checks take. */
export const invalidQueueArgument = (argument: string, problem: string): QueueArgumentError =>
  new QueueArgumentError(argument, problem);
