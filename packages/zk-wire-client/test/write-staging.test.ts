/**
 * Requests made in one tick are written at once (transport/write-staging.ts): joined in one reusable staging
 * buffer, or written as they lie when they were cut back to back from the codec's slab, which is then
 * reclaimed. The staging buffer and the slab may be reused only once the socket has handed the previous write
 * to the kernel; a write the kernel could not take at once stays the socket's. These tests fill the socket so
 * that writes go out late, or reuse the slab write after write, and check that every byte arrives as written:
 * at a TCP sink that reads only after all the writes were made, and at a real server, which must store each
 * value intact.
 */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { allocFrame } from '@zkwire/jute-codec/internal';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, op, type ZooKeeperClient } from '../src/index.js';
import { Connection, type ConnectionHandler } from '../src/transport/connection.js';

/** Frames of `size` bytes, each filled with its own byte, so a frame overwritten by another cannot pass. */
function patternedFrames(count: number, size: number, first: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => Buffer.alloc(size, (first + i) % 251));
}

/** As {@link patternedFrames}, but cut from the codec's slab as request frames are: back to back. */
function slabFrames(count: number, size: number, first: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => allocFrame(size).fill((first + i) % 251));
}

/** A TCP sink that reads nothing until `resume`, and a Connection of our own to it. */
async function sinkAndConnection() {
  const received: Buffer[] = [];
  let sink: Socket | undefined;
  const server = createServer((socket) => {
    sink = socket;
    socket.pause();
    socket.on('data', (chunk: Buffer) => received.push(chunk));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const connection = await new Promise<Connection>((resolve) => {
    const handler: ConnectionHandler = {
      onOpen: (opened) => resolve(opened),
      onFrame: () => {},
      onDrain: () => {},
      awaitingReplies: () => 0,
      onClose: () => {},
    };
    Connection.open({ host: '127.0.0.1', port }, {}, handler);
  });
  while (sink === undefined) await new Promise((resolve) => setImmediate(resolve));
  const socket = sink;
  return {
    connection,
    resume: () => socket.resume(),
    /** Waits until `length` bytes arrived, then returns them. */
    async bytes(length: number): Promise<Buffer> {
      socket.resume();
      while (received.reduce((sum, chunk) => sum + chunk.length, 0) < length) await once(socket, 'data');
      return Buffer.concat(received);
    },
    close() {
      connection.close();
      server.close();
    },
  };
}

describe('staged writes against a socket that cannot take them at once', () => {
  it('every byte of every write arrives, in order, when the kernel takes writes late', async () => {
    const { connection, bytes, close } = await sinkAndConnection();
    // 40 writes of 4 frames of 64 KiB (10 MiB): far more than loopback buffers take without a read, so most
    // writes are left to the socket while later ones are staged.
    const writes = Array.from({ length: 40 }, (_, w) => patternedFrames(4, 64 * 1024, 4 * w));
    const expected = Buffer.concat(writes.flat());
    let refused = 0;
    for (const frames of writes) {
      if (!connection.writeFrames(frames, frames.length * 64 * 1024)) refused++;
    }
    expect(refused).toBeGreaterThan(0); // the socket did fill: the case under test happened

    const got = await bytes(expected.length);
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
    close();
  });
});

describe('frames written as they lie in the slab', () => {
  it('a run the socket could not take keeps its bytes while later frames are cut (no reclaim)', async () => {
    const { connection, bytes, close } = await sinkAndConnection();
    // Runs of frames cut back to back, each written as one view of the slab, with nobody reading: the socket
    // soon holds them (7 MB, far more than loopback buffers take). Each run is followed by frames cut after
    // its write, from the same slab while it lasts: they must not land on bytes the socket still holds.
    const expected: Buffer[] = [];
    let refused = 0;
    for (let r = 0; r < 400; r++) {
      for (const [count, size] of [
        [3, 5_000],
        [2, 1_500],
      ] as const) {
        const frames = slabFrames(count, size, 5 * r + count);
        expected.push(Buffer.concat(frames));
        if (!connection.writeFrames(frames, count * size)) refused++;
      }
    }
    expect(refused).toBeGreaterThan(0); // the socket did fill: the case under test happened
    const want = Buffer.concat(expected);
    const got = await bytes(want.length);
    expect(got.length).toBe(want.length);
    expect(got.equals(want)).toBe(true);
    close();
  });

  it('runs written whole, the slab reclaimed and cut again each time, all arrive as they were', async () => {
    const { connection, bytes, resume, close } = await sinkAndConnection();
    resume();
    const expected: Buffer[] = [];
    let last: Buffer[] = [];
    // Small runs that the kernel takes at once: each is all of the slab given out, so the next is cut from
    // the same bytes. A run reclaimed too early would arrive with the next run's pattern in it.
    for (let round = 0; round < 200; round++) {
      const frames = slabFrames(1 + (round % 5), 1_024 + round, round);
      last = frames;
      expected.push(Buffer.concat(frames));
      connection.writeFrames(
        frames,
        frames.reduce((sum, frame) => sum + frame.length, 0),
      );
      if (round % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const reused = slabFrames(1, 1_024, 0)[0]!;
    // The last run was reclaimed (the case under test happened): the next frame starts its slab again.
    expect(reused.buffer).toBe(last[0]!.buffer);
    expect(reused.byteOffset).toBe(0);
    const want = Buffer.concat(expected);
    const got = await bytes(want.length);
    expect(got.equals(want)).toBe(true);
    close();
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

  it('multis tick after tick, their frames cut from a reclaimed slab, each store what it sent', async () => {
    const nodes = Array.from({ length: 40 }, (_, i) => `/staged/r${i}`);
    await Promise.all(nodes.map((path) => zk.create(path, null)));
    // Each round: 8 multis of 5 setData (~1.7 KB frames, from the slab), each followed in the same tick by
    // reads of its nodes, which see that multi's values (a session's calls run in order). Rounds start in
    // turn while earlier ones are still on the wire.
    const value = (round: number, node: number) => Buffer.alloc(300, (round * 41 + node) % 251);
    const rounds: Promise<boolean[]>[] = [];
    for (let round = 0; round < 60; round++) {
      const checks: Promise<boolean>[] = [];
      for (let m = 0; m < 8; m++) {
        const mine = nodes.slice(5 * m, 5 * m + 5);
        const multi = zk.multi(mine.map((path, i) => op.setData(path, value(round, 5 * m + i))));
        checks.push(multi.then((results) => results.length === 5));
        for (const [i, path] of mine.entries()) {
          checks.push(zk.getData(path).then(({ data }) => data.equals(value(round, 5 * m + i))));
        }
      }
      rounds.push(Promise.all(checks));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const outcomes = await Promise.all(rounds);
    expect(outcomes.map((round) => round.every(Boolean))).toEqual(outcomes.map(() => true));
  });
});
