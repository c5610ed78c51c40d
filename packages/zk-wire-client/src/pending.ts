/**
 * Requests on their way: the request object, and the FIFO of requests written to the socket and waiting for
 * their replies. The server answers one session's requests in order (wire-protocol.md §8), so each reply
 * must match the head of the FIFO; anything else is a protocol error that ends the connection.
 */
import type { ZooKeeperError } from './errors.js';
import type { Chroot } from './paths.js';
import type { WatchTables } from './watches.js';

/** What a decoder may use besides the reply: the chroot (to strip paths) and the watch tables. */
export interface ReplyContext {
  readonly chroot: Chroot;
  readonly watches: WatchTables;
}

/** How a reply becomes a result; one static object per operation, so a request holds no closures. */
export interface ReplyDecoder<R = unknown> {
  /** The operation name, used in errors. */
  readonly operation: string;
  /** Codes other than 0 that are results rather than errors (exists on a missing node: -101). */
  readonly resultCodes?: readonly number[];
  /**
   * Builds the result from the reply, for err = 0 or one of `resultCodes` (other codes reject the call
   * without calling it). May throw a ZooKeeperError (the call fails) or a codec error (the connection ends).
   */
  decode(context: ReplyContext, request: PendingRequest<R>, err: number, payload: Buffer, offset: number): R;
}

/** Where a request is. */
export const RequestState = { queued: 0, written: 1, settled: 2 } as const;
/** One of {@link RequestState}. */
export type RequestState = (typeof RequestState)[keyof typeof RequestState];

/** One request: its frame, its decoder, and the promise callbacks. */
export class PendingRequest<R = unknown> {
  state: RequestState = RequestState.queued;
  /** ms timestamp after which the request times out (0 = never). */
  deadline = 0;
  /** Cleans up an abort listener when the request settles. */
  detach: (() => void) | undefined = undefined;

  constructor(
    /** The xid of the request; written into the frame. */
    readonly xid: number,
    /** The complete frame (length prefix included). */
    readonly frame: Buffer,
    /** Decoder of the reply. */
    readonly decoder: ReplyDecoder<R>,
    /** The client path (for errors and watch registration). */
    readonly path: string | undefined,
    /** Operation-specific data the decoder needs (a watcher, the requested ops of a multi, ...). */
    readonly context: unknown,
    readonly resolve: (value: R) => void,
    readonly reject: (error: unknown) => void,
  ) {}

  /** Settles with a value unless already settled; false when the result had to be discarded. */
  fulfil(value: R): boolean {
    if (this.state === RequestState.settled) return false;
    this.state = RequestState.settled;
    this.detach?.();
    this.resolve(value);
    return true;
  }

  /** Rejects unless already settled. */
  fail(error: ZooKeeperError | unknown): boolean {
    if (this.state === RequestState.settled) return false;
    this.state = RequestState.settled;
    this.detach?.();
    this.reject(error);
    return true;
  }
}

/**
 * A FIFO over an array with a moving head, so that taking the head is O(1) without `Array.shift`.
 */
export class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  /** Number of items. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Appends an item. */
  push(item: T): void {
    this.items.push(item);
  }

  /** The head, without removing it. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Removes and returns the head. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes and returns every item, in order. */
  drain(): T[] {
    const out = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return out;
  }

  /** Iterates in order without removing. */
  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
}
