import { describe, expect, it } from 'vitest';
import { connectFrame, multiSetDataFrame, pathWatchFrame, RawOpCode, ReplyCounter } from './raw-wire.js';

/** A reply frame: length, xid, zxid, err, then `body` bytes. */
function reply(xid: number, err: number, body = 0): Buffer {
  const frame = Buffer.alloc(20 + body);
  frame.writeInt32BE(16 + body, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeBigInt64BE(7n, 8);
  frame.writeInt32BE(err, 16);
  return frame;
}

describe('ReplyCounter', () => {
  it('reports every frame once, however the bytes are cut into chunks', () => {
    const stream = Buffer.concat([reply(1, 0, 100), reply(2, -101), reply(-1, 0, 30), reply(3, 0, 5)]);
    for (const size of [1, 3, 19, 20, 21, 64, stream.length]) {
      const seen: [number, number][] = [];
      const counter = new ReplyCounter((xid, err) => seen.push([xid, err]));
      for (let i = 0; i < stream.length; i += size) counter.push(stream.subarray(i, i + size));
      expect(seen, `chunks of ${size}`).toEqual([
        [1, 0],
        [2, -101],
        [-1, 0],
        [3, 0],
      ]);
    }
  });

  it('throws on a frame length no server sends', () => {
    const bad = reply(1, 0);
    bad.writeInt32BE(3, 0);
    expect(() => new ReplyCounter(() => {}).push(bad)).toThrow('raw: bad reply frame length 3');
  });
});

describe('frames', () => {
  it('lay out jute as the server reads it', () => {
    expect(connectFrame()).toHaveLength(4 + 45);
    const getData = pathWatchFrame(9, RawOpCode.getData, '/a', true);
    expect([...getData]).toEqual([0, 0, 0, 15, 0, 0, 0, 9, 0, 0, 0, 4, 0, 0, 0, 2, 0x2f, 0x61, 1]);
    const multi = multiSetDataFrame(1, ['/a'], Buffer.from('x'));
    // header 8, MultiHeader 9, path 6, data 5, version 4, terminator 9
    expect(multi.readInt32BE(0)).toBe(8 + 9 + 6 + 5 + 4 + 9);
  });
});
