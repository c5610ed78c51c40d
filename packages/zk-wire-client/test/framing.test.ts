/**
 * Framing against real bytes: a scripted session runs once against a real server while both byte streams are
 * recorded; then the same script runs again many times against the recording, the server's bytes cut at every
 * byte offset (and once byte by byte). Every replay must send the same bytes and get the same results and
 * events as the live run.
 */
import net, { type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { startZooKeeper } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { type ClientOptions, connect, op, type WatchEvent, ZooKeeperError } from '../src/index.js';

interface Recording {
  /** Client bytes, in order. */
  out: Buffer;
  /** Server chunks, each with the number of client bytes written before it arrived. */
  in: { outBefore: number; bytes: Buffer }[];
}

function normalise(value: unknown): unknown {
  if (ZooKeeperError.isInstance(value)) return { error: value.code, path: value.path };
  if (Buffer.isBuffer(value)) return { bytes: value.toString('hex') };
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/** The script: everything is issued in one tick, so the conversation is the same on every run. */
async function script(options: ClientOptions): Promise<{ results: unknown[]; events: WatchEvent[] }> {
  const zk = await connect(options);
  const events: WatchEvent[] = [];
  const watch = (e: WatchEvent) => events.push(e);
  const calls: Promise<unknown>[] = [
    zk.create('/f', 'data'),
    zk.getData('/f', { watch }),
    zk.setData('/f', 'changed'),
    zk.exists('/later', { watch }),
    zk.getChildren2('/', {}),
    zk.getData('/nope'),
    zk.multi([op.create('/f/a'), op.check('/f', 0)]),
    zk.multi([op.create('/f/b', 'b'), op.setData('/f', 'x', 1), op.delete('/f/b')]),
    zk.create('/s-', Buffer.alloc(3000, 7), { mode: 'persistent-sequential' }),
    zk.create('/later'),
    zk.getACL('/f'),
    zk.getChildren('/f', { watch }),
    zk.create('/f/kid'),
    zk.delete('/f/kid'),
    zk.getData('/s-0000000001'),
  ];
  const settled = await Promise.allSettled(calls);
  await zk.close();
  return { results: settled.map((s) => normalise(s.status === 'fulfilled' ? s.value : s.reason)), events };
}

/** A socket that plays the server's side of a recording, releasing each chunk once the client has sent what preceded it. */
class ReplaySocket extends Duplex {
  connecting = false;
  readonly readyState = 'open';
  written: Buffer[] = [];
  private writtenBytes = 0;
  private next = 0;

  constructor(
    private readonly recording: Recording,
    private readonly cuts: Set<number>,
  ) {
    super();
  }

  setNoDelay(): this {
    return this;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.written.push(Buffer.from(chunk));
    this.writtenBytes += chunk.length;
    callback();
    setImmediate(() => this.release());
  }

  private offset = 0;

  private release(): void {
    while (
      this.next < this.recording.in.length &&
      this.recording.in[this.next]!.outBefore <= this.writtenBytes
    ) {
      const bytes = this.recording.in[this.next++]!.bytes;
      // Cut the chunk at every global offset that falls inside it.
      let start = 0;
      for (let i = 1; i < bytes.length; i++) {
        if (this.cuts.has(this.offset + i)) {
          this.push(bytes.subarray(start, i));
          start = i;
        }
      }
      this.push(bytes.subarray(start));
      this.offset += bytes.length;
    }
  }
}

describe('framing of real reply streams', () => {
  it('gives the same results for the recorded stream cut at every byte', async () => {
    await using server = await startZooKeeper();
    const recording: Recording = { out: Buffer.alloc(0), in: [] };
    const outChunks: Buffer[] = [];
    let outBytes = 0;
    const live = await script({
      connectString: server.connectString,
      connectionFactory: (host, port) => {
        const socket = net.connect({ host, port });
        const write = socket.write.bind(socket) as (chunk: Buffer) => boolean;
        socket.write = ((chunk: Buffer) => {
          outChunks.push(Buffer.from(chunk));
          outBytes += chunk.length;
          return write(chunk);
        }) as Socket['write'];
        socket.on('data', (bytes: Buffer) =>
          recording.in.push({ outBefore: outBytes, bytes: Buffer.from(bytes) }),
        );
        return socket;
      },
    });
    recording.out = Buffer.concat(outChunks);
    // The live run saw the server's real answers.
    expect(live.results[0]).toBe('/f');
    expect(live.results[5]).toEqual({ error: 'NONODE', path: '/nope' });
    expect(live.results[6]).toMatchObject({ error: 'BADVERSION' });
    expect(live.events).toMatchObject([
      { type: 'dataChanged', path: '/f' },
      { type: 'created', path: '/later' },
      { type: 'childrenChanged', path: '/f' },
    ]);

    const total = recording.in.reduce((n, c) => n + c.bytes.length, 0);
    // Several kilobytes of replies, so the cuts fall inside headers, Stats, strings and the 3000-byte data.
    expect(total).toBeGreaterThan(3000);
    expect(live.results[14]).toMatchObject({ data: { bytes: '07'.repeat(3000) } });
    const plans: Set<number>[] = [new Set(Array.from({ length: total }, (_, i) => i))];
    for (let k = 1; k < total; k++) plans.push(new Set([k]));
    for (const cuts of plans) {
      let socket: ReplaySocket | undefined;
      const replay = await script({
        connectString: '127.0.0.1:2181',
        connectionFactory: () => {
          socket = new ReplaySocket(recording, cuts);
          return socket as unknown as Socket;
        },
      });
      expect(replay).toEqual(live);
      expect(Buffer.concat(socket!.written).equals(recording.out)).toBe(true);
    }
  }, 240_000);
});
