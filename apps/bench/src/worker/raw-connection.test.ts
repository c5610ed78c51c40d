import { describe, expect, it } from 'vitest';
import { ReplyCounter } from './raw-connection.js';

/** A reply frame: length, xid, zxid, err, then `bodyLength` bytes. */
function reply(xid: number, err: number, bodyLength: number): Buffer {
  const b = Buffer.alloc(4 + 16 + bodyLength, 0xee);
  b.writeInt32BE(16 + bodyLength, 0);
  b.writeInt32BE(xid, 4);
  b.writeBigInt64BE(99n, 8);
  b.writeInt32BE(err, 16);
  return b;
}

const stream = Buffer.concat([
  reply(1, 0, 0),
  reply(2, -101, 0),
  reply(3, 0, 85),
  reply(-1, 0, 30),
  reply(4, 0, 1),
]);
const expected = [
  [1, 0],
  [2, -101],
  [3, 0],
  [-1, 0],
  [4, 0],
];

function count(chunks: Buffer[]): number[][] {
  const seen: number[][] = [];
  const counter = new ReplyCounter((xid, err) => seen.push([xid, err]));
  for (const chunk of chunks) counter.push(chunk);
  return seen;
}

describe('ReplyCounter', () => {
  it('reads xid and err of every frame given whole', () => {
    expect(count([stream])).toEqual(expected);
  });

  it('reads the same byte by byte', () => {
    expect(count([...stream].map((b) => Buffer.from([b])))).toEqual(expected);
  });

  it('reads the same split at every point', () => {
    for (let at = 1; at < stream.length; at++) {
      expect(count([stream.subarray(0, at), stream.subarray(at)]), `split at ${at}`).toEqual(expected);
    }
  });

  it('rejects a length shorter than a reply header', () => {
    const bad = Buffer.alloc(20);
    bad.writeInt32BE(3, 0);
    expect(() => count([bad])).toThrow(/bad reply frame length 3/);
  });
});
