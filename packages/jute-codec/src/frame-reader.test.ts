import { describe, expect, it } from 'vitest';
import { JuteCodecError } from './errors';
import { DEFAULT_MAX_FRAME_LENGTH, FrameReader } from './frame-reader';

function frame(payload: Buffer): Buffer {
  const out = Buffer.alloc(4 + payload.length);
  out.writeInt32BE(payload.length, 0);
  payload.copy(out, 4);
  return out;
}

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return JuteCodecError.isInstance(error) ? error.code : 'not a JuteCodecError';
  }
  return undefined;
}

describe('FrameReader', () => {
  it('returns every complete frame of a chunk, in order', () => {
    const reader = new FrameReader();
    const chunk = Buffer.concat([
      frame(Buffer.from('one')),
      frame(Buffer.alloc(0)),
      frame(Buffer.from('three')),
    ]);
    expect(reader.push(chunk).map(String)).toEqual(['one', '', 'three']);
    expect(reader.buffered).toBe(0);
  });

  it('holds a partial frame until the rest arrives', () => {
    const reader = new FrameReader();
    const bytes = frame(Buffer.from('hello world'));
    expect(reader.push(bytes.subarray(0, 2))).toEqual([]);
    expect(reader.push(bytes.subarray(2, 9))).toEqual([]);
    expect(reader.buffered).toBe(9);
    expect(reader.push(bytes.subarray(9)).map(String)).toEqual(['hello world']);
  });

  it('never overwrites a payload it has handed out', () => {
    const reader = new FrameReader();
    const a = frame(Buffer.from('aaaa'));
    const b = frame(Buffer.from('bbbb'));
    const [first] = [...reader.push(a.subarray(0, 6)), ...reader.push(a.subarray(6))];
    reader.push(b.subarray(0, 6));
    reader.push(b.subarray(6));
    expect(String(first)).toBe('aaaa');
  });

  it('defaults to a 4 MiB cap and accepts a frame of exactly the cap', () => {
    expect(new FrameReader().maxFrameLength).toBe(DEFAULT_MAX_FRAME_LENGTH);
    expect(DEFAULT_MAX_FRAME_LENGTH).toBe(4 * 1024 * 1024);
    const reader = new FrameReader({ maxFrameLength: 5 });
    expect(reader.push(frame(Buffer.from('12345'))).map(String)).toEqual(['12345']);
  });

  it('rejects an oversize length before allocating, and stays failed', () => {
    const reader = new FrameReader({ maxFrameLength: 1024 });
    const header = Buffer.alloc(4);
    header.writeInt32BE(0x7fffffff, 0);
    expect(errorCode(() => reader.push(header))).toBe('FRAME_TOO_LARGE');
    expect(reader.buffered).toBe(0);
    expect(errorCode(() => reader.push(frame(Buffer.from('ok'))))).toBe('FRAME_TOO_LARGE');
  });

  it('rejects a negative length, even when its header arrives in pieces', () => {
    const reader = new FrameReader();
    expect(reader.push(Buffer.from([0xff, 0xff]))).toEqual([]);
    expect(errorCode(() => reader.push(Buffer.from([0xff, 0xfe])))).toBe('NEGATIVE_LENGTH');
  });

  it('refuses an invalid cap', () => {
    expect(() => new FrameReader({ maxFrameLength: -1 })).toThrow(JuteCodecError);
    expect(() => new FrameReader({ maxFrameLength: 2 ** 31 })).toThrow(JuteCodecError);
  });
});
