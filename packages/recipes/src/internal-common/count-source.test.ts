import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { decodeSharedCount, onCountChange, readCount } from './count-source.js';

describe('decodeSharedCount', () => {
  it('reads a 4-byte big-endian int32 (Curator SharedCount, observed -2 = fffffffe)', () => {
    expect(decodeSharedCount(Uint8Array.from([0xff, 0xff, 0xff, 0xfe]))).toBe(-2);
    expect(decodeSharedCount(Uint8Array.from([0, 0, 1, 0]))).toBe(256);
  });

  it('refuses any other length', () => {
    expect(() => decodeSharedCount(new Uint8Array(0))).toThrow(RangeError);
    expect(() => decodeSharedCount(new Uint8Array(8))).toThrow(RangeError);
  });
});

describe('count sources', () => {
  it('read getCount() or a count getter', () => {
    const withMethod = Object.assign(new EventEmitter(), { getCount: () => 3 });
    const withGetter = Object.assign(new EventEmitter(), { count: 5 });
    expect(readCount(withMethod)).toBe(3);
    expect(readCount(withGetter)).toBe(5);
  });

  it('subscribe and unsubscribe to changes', () => {
    const source = Object.assign(new EventEmitter(), { count: 1 });
    const seen: number[] = [];
    const stop = onCountChange(source, (count) => seen.push(count));
    source.emit('change', 2);
    stop();
    source.emit('change', 3);
    expect(seen).toEqual([2]);
    expect(source.listenerCount('change')).toBe(0);
  });
});
