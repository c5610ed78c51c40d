// Framing: every case is fed whole, byte by byte, split at every point, and in random pieces; the frames
// that come out must be the same each way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode } from './codec';
import { fast } from './fast';
import { FrameReader } from './frame-reader';
import { records, type Stat } from './records';
import { frame, lengthPrefix, replyPayload } from './testing/frames';
import { outcome } from './testing/outcome';

const stat: Stat = {
  czxid: 10n,
  mzxid: 11n,
  ctime: 1n,
  mtime: 2n,
  version: 1,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: 0x1000000aabbccddn,
  dataLength: 3,
  numChildren: 0,
  pzxid: 10n,
};

const payloads: Record<string, Buffer[]> = {
  'one ping reply': [replyPayload({ xid: -2, zxid: 5n, err: 0 })],
  'a getData reply': [
    replyPayload({ xid: 1, zxid: 7n, err: 0 }, records.GetDataResponse, { data: Buffer.from('abc'), stat }),
  ],
  'notification then reply': [
    replyPayload({ xid: -1, zxid: -1n, err: 0 }, records.WatcherEvent, { type: 3, state: 3, path: '/a' }),
    replyPayload({ xid: 2, zxid: 8n, err: 0 }, records.SetDataResponse, { stat }),
  ],
  'empty frames between others': [Buffer.alloc(0), Buffer.from([1]), Buffer.alloc(0)],
  'many small frames': Array.from({ length: 20 }, (_, i) => Buffer.alloc(i, i)),
  'a 70 KiB frame between two small ones': [Buffer.from('x'), Buffer.alloc(70 * 1024, 7), Buffer.from('y')],
};

const cases = Object.entries(payloads).map(
  ([name, list]) => [name, list.map((b) => b.toString('hex')), Buffer.concat(list.map(frame))] as const,
);

// Feeds the chunks and returns the frames as hex: comparing strings keeps the 70 KiB case fast.
function feed(chunks: Buffer[]): string[] {
  const reader = new FrameReader();
  const out: Buffer[] = [];
  for (const chunk of chunks) out.push(...reader.push(chunk));
  expect(reader.buffered).toBe(0);
  // read only after every push, so a reader that overwrote a payload it had handed out would be caught
  return out.map((b) => b.toString('hex'));
}

describe.each(cases)('framing: %s', (_name, expected, stream) => {
  it('whole', () => {
    expect(feed([stream])).toEqual(expected);
  });

  it('byte by byte', () => {
    const bytes = [...stream].map((b) => Buffer.from([b]));
    expect(feed(bytes)).toEqual(expected);
  });

  it('split at every point', () => {
    // the 70 KiB case has too many split points to check all of them cheaply; step through it
    const step = stream.length > 4096 ? 97 : 1;
    for (let at = 0; at <= stream.length; at += step) {
      expect(feed([stream.subarray(0, at), stream.subarray(at)])).toEqual(expected);
    }
  });

  it('in random pieces (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(stream.length), { maxLength: 12 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), stream.length];
        const chunks = points.slice(1).map((end, i) => stream.subarray(points[i], end));
        expect(feed(chunks)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});

describe('framing then decoding', () => {
  it('a split getData reply decodes the same on both paths', () => {
    const [, list, stream] = cases[1]!;
    const reader = new FrameReader();
    const frames = [...reader.push(stream.subarray(0, 30)), ...reader.push(stream.subarray(30))];
    expect(frames.map((b) => b.toString('hex'))).toEqual(list);
    const payload = frames[0]!;
    expect(fast.decodeReplyHeader(payload, 0)).toEqual({ xid: 1, zxid: 7n, err: 0 });
    const body = payload.subarray(16);
    expect(fast.decodeGetDataResponse(payload, 16, payload.length)).toEqual(
      decode(records.GetDataResponse, body),
    );
  });
});

describe('bad lengths in a stream', () => {
  const good = frame(Buffer.from('ok'));

  it.each([
    ['NEGATIVE_LENGTH', lengthPrefix(-5)],
    ['FRAME_TOO_LARGE', lengthPrefix(1025)],
  ])('%s ends the stream however it is split, after handing on the frames before it', (code, bad) => {
    const stream = Buffer.concat([good, bad, good]);
    for (let at = 0; at <= stream.length; at++) {
      const reader = new FrameReader({ maxFrameLength: 1024 });
      const delivered: Buffer[] = [];
      const result = outcome(() => {
        for (const chunk of [stream.subarray(0, at), stream.subarray(at)])
          delivered.push(...reader.push(chunk));
      });
      // The good frame before the bad length always comes out: when the same push meets the bad length,
      // the push returns it and sets `failure` instead of throwing it away.
      expect(delivered.length).toBe(1);
      // Thrown by the second push, or (when the first push completed the frame and ended the stream, or was
      // empty) set as `failure` on the push that returned the frame.
      expect(['value' in result ? 'returned' : result.code, reader.failure?.code]).toEqual(
        'value' in result ? ['returned', code] : [code, code],
      );
      expect(outcome(() => reader.push(good))).toEqual({ code });
    }
  });

  it('a push that meets a bad length before any whole frame throws it', () => {
    const reader = new FrameReader({ maxFrameLength: 1024 });
    expect(outcome(() => reader.push(lengthPrefix(-1)))).toEqual({ code: 'NEGATIVE_LENGTH' });
  });
});
