/**
 * A seeded random-frame fuzzer for the hostile server: a script that answers each ConnectRequest and each
 * request with an honest frame or, by chance, with one of the ways a broken or malicious server goes wrong.
 * The same seed gives the same choices (the timing of the client still varies), so a failure prints a seed
 * worth replaying.
 */
import {
  connectResponseFrame,
  type HostilePeer,
  type HostileRequest,
  type HostileScript,
  honestReply,
  notificationFrame,
  replyFrame,
  zkFrame,
} from './hostile-server.js';

/** mulberry32: a small, fast, seeded generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the fuzzer did, by kind, for the test's report. */
export type FuzzTally = Record<string, number>;

/** Options of {@link frameFuzzer}. */
export interface FrameFuzzerOptions {
  seed: number;
  /** Chance that a request gets something other than an honest answer. Default 0.3. */
  hostility?: number;
}

/** A fuzzing script and the tally of what it sent. */
export interface FrameFuzzer {
  script: HostileScript;
  tally: FuzzTally;
}

function randomBytes(random: () => number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

/** Builds a fuzzing script (see the module comment). */
export function frameFuzzer(options: FrameFuzzerOptions): FrameFuzzer {
  const random = seededRandom(options.seed);
  const hostility = options.hostility ?? 0.3;
  const tally: FuzzTally = {};
  const pick = <T extends string>(kinds: readonly T[]): T => {
    const kind = kinds[Math.floor(random() * kinds.length)] as T;
    tally[kind] = (tally[kind] ?? 0) + 1;
    return kind;
  };
  const lengthPrefix = (length: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(length);
    return bytes;
  };

  const connectKinds = [
    'connect:timeout-0',
    'connect:timeout-negative',
    'connect:session-0',
    'connect:truncated',
    'connect:garbage',
    'connect:silent',
    'connect:huge-timeout',
  ] as const;
  const requestKinds = [
    'unknown-xid',
    'negative-length',
    'huge-length',
    'truncated-record',
    'garbage',
    'bad-utf8-notification',
    'null-path-notification',
    'corrupted-zxid',
    'silence',
    'reset',
    'byte-at-a-time',
    'frames-then-bad-length',
  ] as const;

  const onRequest = (request: HostileRequest, peer: HostilePeer): void => {
    if (request.type === 11 || random() >= hostility) {
      honestReply(request, peer);
      return;
    }
    switch (pick(requestKinds)) {
      case 'unknown-xid':
        peer.reply(request.xid + 1 + Math.floor(random() * 1000), { err: -101 });
        break;
      case 'negative-length':
        peer.send(lengthPrefix(-1 - Math.floor(random() * 0x7ffffffe)));
        break;
      case 'huge-length':
        peer.send(lengthPrefix(0x7fffffff));
        break;
      case 'truncated-record':
        // err 0 promises a record (a Stat for exists) that is not there.
        peer.reply(request.xid, { body: randomBytes(random, Math.floor(random() * 40)) });
        break;
      case 'garbage':
        peer.send(randomBytes(random, 1 + Math.floor(random() * 64)));
        break;
      case 'bad-utf8-notification':
        peer.send(notificationFrame(1 + Math.floor(random() * 6), Buffer.from([0x2f, 0xc3, 0x28, 0xff])));
        honestReply(request, peer);
        break;
      case 'null-path-notification':
        peer.send(notificationFrame(1 + Math.floor(random() * 4), null));
        honestReply(request, peer);
        break;
      case 'corrupted-zxid':
        peer.reply(request.xid, { err: -101, zxid: BigInt(Math.floor(random() * 0x7fffffff)) << 16n });
        break;
      case 'silence':
        break;
      case 'reset':
        peer.destroy();
        break;
      case 'byte-at-a-time':
        peer.dribble(replyFrame(request.xid, { err: -101 }), 5);
        break;
      case 'frames-then-bad-length':
        peer.send(Buffer.concat([replyFrame(request.xid, { err: -101 }), lengthPrefix(-7)]));
        break;
    }
  };

  const script: HostileScript = {
    onConnect: (request) => {
      if (random() >= hostility) return undefined;
      const passwd = Buffer.alloc(16, 1);
      switch (pick(connectKinds)) {
        case 'connect:timeout-0':
          return { timeOut: 0 };
        case 'connect:timeout-negative':
          return { timeOut: -1 - Math.floor(random() * 1000) };
        case 'connect:session-0':
          return { sessionId: 0n };
        case 'connect:truncated':
          return connectResponseFrame(request.timeOut, 77n, passwd).subarray(0, 10);
        case 'connect:garbage':
          return zkFrame(randomBytes(random, Math.floor(random() * 40)));
        case 'connect:silent':
          return 'silent';
        case 'connect:huge-timeout':
          return { timeOut: 0x7fffffff };
      }
    },
    onRequest,
  };
  return { script, tally };
}
