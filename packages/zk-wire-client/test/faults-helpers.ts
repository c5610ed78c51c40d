/**
 * Helpers shared by the fault and session tests: a guard that fails a test file on any unhandled rejection or
 * uncaught exception, state recorders, and a socket tap that decodes the frames the client writes (to count
 * SetWatches batches and check what follows a handshake). The tap only observes: bytes go to the real server
 * unchanged.
 */
import net, { type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ConnectionState, ZooKeeperClient } from '../src/index.js';

/**
 * Installs process listeners for the whole file; after each test, asserts that none fired. A client that let
 * a socket error or a rejected internal promise escape fails the test that caused it.
 */
export function failOnProcessErrors(): void {
  const escaped: unknown[] = [];
  const onRejection = (reason: unknown) => escaped.push(reason);
  const onException = (error: unknown) => escaped.push(error);
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  });
  afterEach(() => {
    expect(escaped.splice(0), 'unhandled rejections / uncaught exceptions').toEqual([]);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  });
}

/** Records every state event of a client, from now on. */
export function recordStates(zk: ZooKeeperClient): ConnectionState[] {
  const seen: ConnectionState[] = [];
  zk.on('state', (state) => seen.push(state));
  return seen;
}

/** Resolves at the next `wanted` state event. */
export function nextState(zk: ZooKeeperClient, wanted: ConnectionState): Promise<void> {
  return new Promise((resolve) => {
    const listener = (state: ConnectionState) => {
      if (state !== wanted) return;
      zk.off('state', listener);
      resolve();
    };
    zk.on('state', listener);
  });
}

/** Resolves once `check` holds, polling every 50 ms (the test timeout bounds the wait). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** The fields of a ConnectRequest (wire-protocol.md §2.1). */
export interface TappedConnectRequest {
  lastZxidSeen: bigint;
  timeOut: number;
  sessionId: bigint;
  passwd: Buffer;
  readOnly: boolean;
}

/** One frame the client wrote: the ConnectRequest (`connect` set, no header) or a request header. */
export interface TappedFrame {
  connection: number;
  xid: number | undefined;
  opcode: number | undefined;
  length: number;
  /** The frame's last byte: the watch flag of a read request (getData, getChildren, exists). */
  lastByte: number;
  connect?: TappedConnectRequest;
}

/** Decodes a ConnectRequest frame (length prefix included): int, long, int, long, buffer, boolean. */
function decodeConnectRequest(frame: Buffer): TappedConnectRequest {
  const passwdLength = frame.readInt32BE(28);
  return {
    lastZxidSeen: frame.readBigInt64BE(8),
    timeOut: frame.readInt32BE(16),
    sessionId: frame.readBigInt64BE(20),
    passwd: Buffer.from(frame.subarray(32, 32 + passwdLength)),
    readOnly: frame[32 + passwdLength] === 1,
  };
}

/** A connectionFactory that records the frames written on each connection. */
export interface FrameTap {
  factory: (host: string, port: number) => Socket;
  frames: TappedFrame[];
  /** Frames written on connection number `n` (0-based, in opening order). */
  on(n: number): TappedFrame[];
  connections: number;
}

/** Builds a {@link FrameTap}: real sockets to the real server, with their writes decoded on the side. */
export function frameTap(): FrameTap {
  const tap: FrameTap = {
    frames: [],
    connections: 0,
    on: (n) => tap.frames.filter((f) => f.connection === n),
    factory: (host, port) => {
      const connection = tap.connections++;
      const socket = net.connect({ host, port });
      let pending = Buffer.alloc(0);
      let first = true;
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      socket.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (Buffer.isBuffer(chunk)) {
          pending = Buffer.concat([pending, chunk]);
          while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
            const length = pending.readInt32BE(0);
            tap.frames.push({
              connection,
              length,
              lastByte: pending[3 + length]!,
              xid: first ? undefined : pending.readInt32BE(4),
              opcode: first ? undefined : pending.readInt32BE(8),
              ...(first ? { connect: decodeConnectRequest(pending.subarray(0, 4 + length)) } : {}),
            });
            first = false;
            pending = pending.subarray(4 + length);
          }
        }
        return write(chunk, ...rest);
      }) as Socket['write'];
      return socket;
    },
  };
  return tap;
}
