/**
 * The buffers connections read into and stage writes in, as one object with an owner: each connection holds
 * the one it was opened with (ConnectionOptions.buffers), by default the one every connection of the process
 * shares ({@link sharedConnectionBuffers}).
 *
 * Why shared rather than one per connection: a read is handled before its callback returns and a staged
 * write is written in one go, and both happen on the one JavaScript thread, so no two connections ever use
 * them at once. One 64 KiB read buffer per connection would cost 10,000 sessions in one process 640 MiB
 * outside the heap, and made V8 run full collections when many short sessions come and go.
 */
import { Buffer } from 'node:buffer';
import { sharedFrameSlab } from '@zkwire/jute-codec/internal';
import { WriteStaging } from './write-staging.js';

/** The read buffer's size (Node's own read size). */
export const READ_BUFFER_BYTES = 64 * 1024;

/** A read buffer and a write staging buffer, each made on first use. */
export class ConnectionBuffers {
  private read: Buffer | undefined;
  /**
   * Where the frames of one write are joined when they do not lie back to back (write-staging.ts); it tells
   * the codec's shared frame slab, which the request encoders cut frames from, when their bytes are done with.
   */
  readonly staging = new WriteStaging(sharedFrameSlab);

  /** The buffer a socket of our own reads into (see connection.ts: a read is handed on as a view of it). */
  get readBuffer(): Buffer {
    this.read ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
    return this.read;
  }
}

/** The buffers of every connection opened without buffers of its own. */
export const sharedConnectionBuffers = new ConnectionBuffers();
