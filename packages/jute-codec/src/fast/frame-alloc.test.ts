import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { allocFrame } from './frame-alloc';

describe('allocFrame', () => {
  it('gives a Buffer of exactly the size asked, small or large', () => {
    for (const size of [0, 1, 40, 1023, 1024, 1359, 16 * 1024, 16 * 1024 + 1, 100_000]) {
      const frame = allocFrame(size);
      expect(Buffer.isBuffer(frame)).toBe(true);
      expect(frame.length).toBe(size);
    }
  });

  it('cuts large frames from one slab, on 8-byte boundaries, without overlap', () => {
    const frames = Array.from({ length: 6 }, () => allocFrame(1359));
    const slabs = new Set(frames.map((f) => f.buffer));
    // Six frames of 1,359 bytes take an eighth of a 64 KiB slab: at most one slab change among them (when the
    // current slab was nearly full already).
    expect(slabs.size).toBeLessThanOrEqual(2);
    frames.forEach((frame, i) => {
      expect(frame.byteOffset % 8).toBe(0);
      frame.fill(i);
    });
    frames.forEach((frame, i) => {
      expect(frame.every((byte) => byte === i)).toBe(true);
    });
  });

  it('starts a new slab when the current one is full, and the frames of the old one keep their bytes', () => {
    const first = allocFrame(16 * 1024);
    first.fill(0xab);
    // Five frames of 16 KiB cannot all share a 64 KiB slab with the first.
    const later = Array.from({ length: 5 }, () => allocFrame(16 * 1024));
    for (const frame of later) frame.fill(0xcd);
    expect(later.some((frame) => frame.buffer !== first.buffer)).toBe(true);
    expect(first.every((byte) => byte === 0xab)).toBe(true);
  });

  it('gives a frame larger than a quarter slab a buffer of its own', () => {
    const big = allocFrame(16 * 1024 + 1);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(16 * 1024 + 1);
  });
});
