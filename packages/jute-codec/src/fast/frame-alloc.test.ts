import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { allocFrame, reclaimSlab } from './frame-alloc';

describe('allocFrame', () => {
  it('gives a Buffer of exactly the size asked, small or large', () => {
    for (const size of [0, 1, 40, 1023, 1024, 1359, 16 * 1024, 16 * 1024 + 1, 100_000]) {
      const frame = allocFrame(size);
      expect(Buffer.isBuffer(frame)).toBe(true);
      expect(frame.length).toBe(size);
    }
  });

  it('cuts frames, small or large, from one slab, back to back, without overlap', () => {
    const frames = [1359, 40, 37, 1359, 1, 0, 2000, 53].map((size) => allocFrame(size));
    // ~6 KB take a fortieth of a slab: at most one slab change among them (when the current slab was nearly
    // full already).
    const slabs = new Set(frames.map((f) => f.buffer));
    expect(slabs.size).toBeLessThanOrEqual(2);
    for (let i = 1; i < frames.length; i++) {
      const [before, frame] = [frames[i - 1]!, frames[i]!];
      if (frame.buffer === before.buffer) expect(frame.byteOffset).toBe(before.byteOffset + before.length);
    }
    frames.forEach((frame, i) => {
      frame.fill(i);
    });
    frames.forEach((frame, i) => {
      expect(frame.every((byte) => byte === i)).toBe(true);
    });
  });

  it('cuts the slab again from its start once every byte cut from it was written, and only then', () => {
    // A fresh slab: fill the current one until a frame starts at 0.
    let first = allocFrame(4096);
    while (first.byteOffset !== 0) first = allocFrame(4096);
    const second = allocFrame(2000);
    const whole = Buffer.from(first.buffer, 0, first.length + second.length);

    // Part of what was cut (the first frame alone, or a view that stops short): nothing changes.
    reclaimSlab(first);
    reclaimSlab(whole.subarray(0, whole.length - 1));
    reclaimSlab(Buffer.alloc(first.length + second.length));
    const third = allocFrame(1500);
    expect(third.buffer).toBe(first.buffer);
    expect(third.byteOffset).toBe(whole.length);

    // Every byte cut so far, written: the next frame starts the slab again.
    reclaimSlab(Buffer.from(first.buffer, 0, whole.length + third.length));
    const again = allocFrame(1500);
    expect(again.buffer).toBe(first.buffer);
    expect(again.byteOffset).toBe(0);
  });

  it('starts a new slab when the current one is full, and the frames of the old one keep their bytes', () => {
    const first = allocFrame(16 * 1024);
    first.fill(0xab);
    // Seventeen frames of 16 KiB cannot all share a 256 KiB slab with the first.
    const later = Array.from({ length: 17 }, () => allocFrame(16 * 1024));
    for (const frame of later) frame.fill(0xcd);
    expect(later.some((frame) => frame.buffer !== first.buffer)).toBe(true);
    expect(first.every((byte) => byte === 0xab)).toBe(true);
  });

  it('gives a frame larger than 16 KiB a buffer of its own', () => {
    const big = allocFrame(16 * 1024 + 1);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(16 * 1024 + 1);
  });
});
