/**
 * Helpers shared by the fault and session tests: a server behind a fault proxy for a test file, a guard that
 * fails a test file on any unhandled rejection or uncaught exception, a state recorder, and a socket tap that
 * decodes the frames the client writes (to count SetWatches batches and check what follows a handshake). The
 * tap only observes: bytes go to the real server unchanged.
 */
import net, { type Socket } from 'node:net';
import {
  decodeConnectRequest,
  type FaultProxy,
  type HostileConnectRequest,
  type StartZooKeeperOptions,
  serverFixture,
  startFaultProxy,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type ConnectionState, connect, type ZooKeeperClient } from '../src/index.js';

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

/** Resolves once `check` holds, polling every 50 ms (the test timeout bounds the wait). */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

/** The fields of a ConnectRequest (wire-protocol.md §2.1). */
export type TappedConnectRequest = HostileConnectRequest;

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
              ...(first ? { connect: decodeConnectRequest(pending.subarray(4, 4 + length)) } : {}),
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

/** What {@link useProxiedServer} starts for a test file; read it inside tests and hooks, once beforeAll ran. */
export interface ProxiedServer {
  readonly server: ZooKeeperServer;
  /** A fault proxy in front of {@link server}: clients that should suffer faults connect through it. */
  readonly proxy: FaultProxy;
  /**
   * A client connected straight to the server, for setting up and checking what the tested client did. A test
   * that closes it assigns a new one; the file's afterAll closes every one assigned.
   */
  admin: ZooKeeperClient;
}

/**
 * Starts one real server for the calling test file (beforeAll), a fault proxy in front of it and an admin
 * client beside it; closes all of it afterwards (afterAll), the client first.
 */
export function useProxiedServer(options?: StartZooKeeperOptions): ProxiedServer {
  const fixture = serverFixture(options);
  let proxy: FaultProxy | undefined;
  let admin: ZooKeeperClient | undefined;
  beforeAll(async () => {
    await fixture.start();
    const { server } = fixture;
    proxy = fixture.track(await startFaultProxy({ host: server.host, port: server.port }));
    admin = fixture.track(await connect({ connectString: server.connectString }));
  });
  afterAll(fixture.stop);
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`useProxiedServer: no ${what} yet (read it inside a test or hook)`);
    return value;
  };
  return {
    get server() {
      return fixture.server;
    },
    get proxy() {
      return started(proxy, 'fault proxy');
    },
    get admin() {
      return started(admin, 'admin client');
    },
    set admin(client: ZooKeeperClient) {
      admin = fixture.track(client);
    },
  };
}
