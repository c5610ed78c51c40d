import { Buffer } from 'node:buffer';
import { JuteCodecError } from '../errors';

/**
 * A read position over `buf[offset, end)`. Every read checks the end first, so a decoder never reads past
 * the frame it was given, whatever lengths the bytes claim.
 */
export class Cursor {
  constructor(
    readonly buf: Buffer,
    public offset: number,
    readonly end: number,
  ) {}

  /** Throws TRUNCATED unless `n` more bytes are available. */
  need(n: number, what: string): void {
    if (n > this.end - this.offset) {
      throw new JuteCodecError(
        'TRUNCATED',
        `truncated ${what}: needs ${n} bytes at offset ${this.offset}, ${this.end - this.offset} left`,
        { offset: this.offset },
      );
    }
  }

  int32(what = 'int'): number {
    this.need(4, what);
    const value = this.buf.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  int64(what = 'long'): bigint {
    this.need(8, what);
    const value = this.buf.readBigInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  byte(what = 'boolean'): number {
    this.need(1, what);
    return this.buf[this.offset++]!;
  }

  /**
   * Reads a jute length or count: -1 means null (returned as -1), below -1 is NEGATIVE_LENGTH, and a
   * value that needs more than the remaining bytes (at `unit` bytes per element at least) is
   * LENGTH_PAST_END, checked before anything is allocated for it.
   */
  length(what: string, unit: number): number {
    const at = this.offset;
    const n = this.int32(`${what} length`);
    if (n < -1) {
      throw new JuteCodecError('NEGATIVE_LENGTH', `${what} length ${n} at offset ${at}`, { offset: at });
    }
    if (n > 0 && n * unit > this.end - this.offset) {
      throw new JuteCodecError(
        'LENGTH_PAST_END',
        `${what} length ${n} at offset ${at} exceeds the ${this.end - this.offset} bytes left`,
        { offset: at },
      );
    }
    return n;
  }
}

/** Checks that `[offset, end)` is a valid range of `buf`, for the public decode entry points. */
export function checkRange(buf: Buffer, offset: number, end: number): void {
  if (!Buffer.isBuffer(buf)) {
    throw new JuteCodecError('INVALID_VALUE', 'source must be a Buffer');
  }
  if (!Number.isInteger(offset) || !Number.isInteger(end) || offset < 0 || end < offset || end > buf.length) {
    throw new JuteCodecError(
      'INVALID_VALUE',
      `invalid range [${offset}, ${end}) of a ${buf.length}-byte buffer`,
    );
  }
}
