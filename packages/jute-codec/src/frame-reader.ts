import { Buffer } from 'node:buffer';
import { JuteCodecError } from './errors';
import { int32At } from './fast/read';

/** Default cap on an incoming frame: 4 MiB, the 0xFFFFF server limit plus slack (wire-protocol.md §1.3). */
export const DEFAULT_MAX_FRAME_LENGTH = 4 * 1024 * 1024;

/** Options of {@link FrameReader}. */
export interface FrameReaderOptions {
  /** Largest accepted payload length in bytes (default {@link DEFAULT_MAX_FRAME_LENGTH}). */
  maxFrameLength?: number;
}

/**
 * Splits a byte stream into frames: a 4-byte signed big-endian length, then that many payload bytes.
 *
 * Frames that lie whole inside a chunk are returned as views of the chunk, without copying: they hold what
 * the chunk holds, so a caller that reads into one reusable buffer must be done with them (or copy what it
 * keeps) before the next read. A frame split across chunks goes into one accumulation buffer, allocated at
 * the frame's exact length once its length is known (and checked against the cap), so each byte is copied
 * at most once; the reader never writes to memory it has handed out.
 *
 * A negative or oversize length is fatal for the stream, and nothing is allocated for it. The frames the
 * same push completed before it are still returned (the server did answer them), with {@link failure} set:
 * the caller hands them on, then drops the connection. A push that met a bad length before completing any
 * frame throws it, and every later push throws it again (the stream is never resynchronised).
 */
export class FrameReader {
  /** The cap on a payload length. */
  readonly maxFrameLength: number;
  /**
   * The bytes of a length prefix split across chunks, big-endian, as they come: a number rather than a 4-byte
   * buffer of its own, which cost every connection an ArrayBuffer.
   */
  private headerBits = 0;
  private headerFilled = 0;
  private pending: Buffer | null = null;
  private pendingFilled = 0;
  private fatal: JuteCodecError | null = null;

  constructor(options: FrameReaderOptions = {}) {
    const max = options.maxFrameLength ?? DEFAULT_MAX_FRAME_LENGTH;
    if (!Number.isInteger(max) || max < 0 || max > 0x7fffffff) {
      throw new JuteCodecError('INVALID_VALUE', `maxFrameLength must be an integer in [0, 2^31), got ${max}`);
    }
    this.maxFrameLength = max;
  }

  /** The bad length that ended the stream, once met (every later push throws it). */
  get failure(): JuteCodecError | null {
    return this.fatal;
  }

  /** Bytes received but not yet returned as part of a frame. */
  get buffered(): number {
    return this.headerFilled + (this.pending === null ? 0 : 4 + this.pendingFilled);
  }

  /** Feeds a chunk; returns the payloads (without length prefix) of every frame it completes, in order. */
  push(chunk: Buffer): Buffer[] {
    if (this.fatal) throw this.fatal;
    const frames: Buffer[] = [];
    try {
      this.cut(chunk, frames);
    } catch (error) {
      // The frames cut before the bad length are whole replies: returned, with `failure` set.
      if (frames.length === 0) throw error;
    }
    return frames;
  }

  private cut(chunk: Buffer, frames: Buffer[]): void {
    const end = chunk.length;
    let pos = 0;
    while (pos < end) {
      if (this.pending !== null) {
        pos = this.fillPending(chunk, pos, frames);
      } else if (this.headerFilled > 0 || end - pos < 4) {
        this.headerBits = (this.headerBits << 8) | chunk[pos++]!;
        this.headerFilled++;
        if (this.headerFilled === 4) {
          const length = this.headerBits; // `<<` keeps 32 bits, signed: as int32At reads them
          this.headerBits = this.headerFilled = 0;
          this.begin(this.checkLength(length), frames);
        }
      } else {
        const length = this.checkLength(int32At(chunk, pos));
        pos += 4;
        if (length <= end - pos) {
          frames.push(chunk.subarray(pos, pos + length));
          pos += length;
        } else {
          this.begin(length, frames);
        }
      }
    }
  }

  private begin(length: number, frames: Buffer[]): void {
    if (length === 0) {
      frames.push(Buffer.alloc(0));
      return;
    }
    this.pending = Buffer.allocUnsafe(length);
    this.pendingFilled = 0;
  }

  private fillPending(chunk: Buffer, pos: number, frames: Buffer[]): number {
    const pending = this.pending!;
    const take = Math.min(pending.length - this.pendingFilled, chunk.length - pos);
    chunk.copy(pending, this.pendingFilled, pos, pos + take);
    this.pendingFilled += take;
    if (this.pendingFilled === pending.length) {
      frames.push(pending);
      this.pending = null;
      this.pendingFilled = 0;
    }
    return pos + take;
  }

  private checkLength(length: number): number {
    if (length < 0) {
      this.fatal = new JuteCodecError('NEGATIVE_LENGTH', `negative frame length ${length}`);
    } else if (length > this.maxFrameLength) {
      this.fatal = new JuteCodecError(
        'FRAME_TOO_LARGE',
        `frame length ${length} exceeds the limit of ${this.maxFrameLength} bytes`,
      );
    } else {
      return length;
    }
    throw this.fatal;
  }
}
