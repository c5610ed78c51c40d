import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { frameAtSlabStart } from '../testing/slab';
import { allocFrame, releaseFrameBytes } from './frame-alloc';

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

  it('cuts the slab again from its start once every byte cut from it is done with, in order', () => {
    /** A frame at the start of a slab, after everything cut before it was done with. */
    const atStart = (size: number) => {
      const frame = frameAtSlabStart(size);
      expect(frame.byteOffset).toBe(0);
      return frame;
    };

    // Done with one by one, in the order cut: after the last, the slab starts again.
    let [a, b] = [atStart(4096), allocFrame(2000)];
    const c = allocFrame(1500);
    releaseFrameBytes(a);
    releaseFrameBytes(Buffer.alloc(2000)); // another buffer: nothing
    releaseFrameBytes(b);
    const probe = allocFrame(10);
    expect(probe.byteOffset).toBe(a.length + b.length + c.length); // c is not done with yet
    releaseFrameBytes(c);
    expect(allocFrame(0).byteOffset).toBe(probe.byteOffset + 10); // nor the probe
    releaseFrameBytes(probe);
    const again = allocFrame(1500);
    expect(again.buffer).toBe(a.buffer);
    expect(again.byteOffset).toBe(0);

    // Out of order (b before a): b is not counted, so after a the slab is not cut again.
    releaseFrameBytes(again);
    [a, b] = [atStart(4096), allocFrame(2000)];
    releaseFrameBytes(b);
    releaseFrameBytes(a);
    const held = allocFrame(10);
    expect(held.byteOffset).toBe(a.length + b.length);
    expect(held.buffer).toBe(a.buffer);
    // Only bytes that start where the count stands are counted: a view from the slab's start is not, now.
    const run = allocFrame(3000);
    releaseFrameBytes(Buffer.from(run.buffer, 0, run.byteOffset + run.length));
    expect(allocFrame(10).byteOffset).toBe(run.byteOffset + run.length);
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
