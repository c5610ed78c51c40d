/**
 * Requests made in one tick are joined in one reusable staging buffer and written at once (write-staging.ts).
 * The buffer may be reused only once the socket has handed the previous write to the kernel; a write the
 * kernel could not take at once stays the socket's. These tests fill the socket so that writes go out late,
 * and check that every byte arrives as written: at a TCP sink that reads only after all the writes were made,
 * and at a real server, which must store each value intact.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, type ConnectionHandler } from '../src/connection.js';
import { connect, op, type ZooKeeperClient } from '../src/index.js';

/** Frames of `size` bytes, each filled with its own byte, so a frame overwritten by another cannot pass. */
function patternedFrames(count: number, size: number, first: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => Buffer.alloc(size, (first + i) % 251));
}

describe('staged writes against a socket that cannot take them at once', () => {
  it('every byte of every write arrives, in order, when the kernel takes writes late', async () => {
    const received: Buffer[] = [];
    let sink: Socket | undefined;
    const server = createServer((socket) => {
      sink = socket;
      socket.pause(); // reads nothing until every write was made: the socket's buffers fill
      socket.on('data', (chunk: Buffer) => received.push(chunk));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const opened = new Promise<Connection>((resolve) => {
      const handler: ConnectionHandler = {
        onOpen: (connection) => resolve(connection),
        onFrame: () => {},
        onDrain: () => {},
        awaitingReplies: () => 0,
        onClose: () => {},
      };
      Connection.open({ host: '127.0.0.1', port }, {}, handler);
    });
    const connection = await opened;

    // 40 writes of 4 frames of 64 KiB (10 MiB): far more than loopback buffers take without a read, so most
    // writes are left to the socket while later ones are staged.
    const writes = Array.from({ length: 40 }, (_, w) => patternedFrames(4, 64 * 1024, 4 * w));
    const expected = Buffer.concat(writes.flat());
    let refused = 0;
    for (const frames of writes) {
      if (!connection.writeFrames(frames, frames.length * 64 * 1024)) refused++;
    }
    expect(refused).toBeGreaterThan(0); // the socket did fill: the case under test happened

    while (sink === undefined) await new Promise((resolve) => setImmediate(resolve));
    sink.resume();
    const total = () => received.reduce((sum, chunk) => sum + chunk.length, 0);
    while (total() < expected.length) await once(sink, 'data');
    const got = Buffer.concat(received);
    expect(got.length).toBe(expected.length);
    // Compared frame by frame, so that a failure names the first damaged frame.
    const frameBytes = 64 * 1024;
    for (let at = 0; at < expected.length; at += frameBytes) {
      expect({ at, byte: got[at], last: got[at + frameBytes - 1] }).toEqual({
        at,
        byte: expected[at],
        last: expected[at + frameBytes - 1],
      });
    }
    expect(got.equals(expected)).toBe(true);
    connection.close();
    server.close();
  });
});

describe('staged writes to a real server', () => {
  let server: ZooKeeperServer;
  let zk: ZooKeeperClient;

  beforeAll(async () => {
    server = await startZooKeeper();
    zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 15_000 });
    await zk.create('/staged', null);
  });
  afterAll(async () => {
    await zk?.close();
    await server?.[Symbol.asyncDispose]();
  });

  it('a burst of large writes in one tick stores every value intact', async () => {
    const NODES = 60;
    const value = (i: number, round: number) => Buffer.alloc(100 * 1024, (i * 7 + round) % 251);
    await Promise.all(Array.from({ length: NODES }, (_, i) => zk.create(`/staged/n${i}`, null)));
    for (let round = 0; round < 3; round++) {
      // ~6 MiB made in one tick: written in staged chunks, most of them while the socket is still full.
      const writes = Array.from({ length: NODES }, (_, i) => zk.setData(`/staged/n${i}`, value(i, round)));
      const stats = await Promise.all(writes);
      expect(stats.map((stat) => stat.version)).toEqual(stats.map(() => round + 1));
      const read = await Promise.all(Array.from({ length: NODES }, (_, i) => zk.getData(`/staged/n${i}`)));
      expect(read.map((result, i) => result.data.equals(value(i, round)))).toEqual(read.map(() => true));
    }
  });

  it('many multis in one tick, with small writes between them, each apply as sent', async () => {
    const MULTIS = 300;
    const paths = Array.from({ length: 5 }, (_, i) => `/staged/m${i}`);
    await Promise.all(paths.map((path) => zk.create(path, null)));
    const data = (m: number, i: number) => Buffer.alloc(2_000, (m + i) % 251);
    const results = await Promise.all(
      Array.from({ length: MULTIS }, (_, m) =>
        Promise.all([
          zk.multi(paths.map((path, i) => op.setData(path, data(m, i)))),
          zk.exists(paths[m % paths.length]!),
        ]),
      ),
    );
    // Applied in call order: the n-th multi set every node's version to n.
    results.forEach(([multi], m) => {
      expect(multi.map((result) => (result as { stat: { version: number } }).stat.version)).toEqual(
        paths.map(() => m + 1),
      );
    });
    const last = await Promise.all(paths.map((path) => zk.getData(path)));
    expect(last.map((result, i) => result.data.equals(data(MULTIS - 1, i)))).toEqual(paths.map(() => true));
  });
});
