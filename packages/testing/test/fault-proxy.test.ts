import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy, startZooKeeper, type ZooKeeperServer } from '../src/index.js';
import { connectRequestFrame } from './raw-client.js';

/** A raw socket through the proxy that records everything it receives and how it ended. */
class Probe {
  readonly socket: Socket;
  received = Buffer.alloc(0);
  ended = false;
  error: NodeJS.ErrnoException | undefined;
  private readonly closed: Promise<void>;
  private readonly listeners = new Set<() => void>();

  constructor(port: number) {
    this.socket = connect({ host: '127.0.0.1', port });
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const listener of this.listeners) listener();
    });
    this.socket.on('end', () => {
      this.ended = true;
    });
    this.socket.on('error', (error) => {
      this.error = error;
    });
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  /** Resolves once at least `count` bytes have arrived. */
  bytes(count: number): Promise<Buffer> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.received.length >= count) {
          this.listeners.delete(check);
          resolve(this.received);
        }
      };
      this.listeners.add(check);
      check();
    });
  }

  whenClosed(): Promise<void> {
    return this.closed;
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (condition: () => boolean) => {
  while (!condition()) await settle(10);
};
/** A ConnectResponse frame: 4-byte length + 37-byte body (the server echoes the readOnly byte we send). */
const RESPONSE_BYTES = 41;

describe('startFaultProxy', () => {
  let zk: ZooKeeperServer;
  let proxy: FaultProxy;
  const probes: Probe[] = [];
  const probe = async (): Promise<Probe> => {
    const p = new Probe(proxy.port);
    probes.push(p);
    await p.connected();
    return p;
  };

  beforeAll(async () => {
    zk = await startZooKeeper();
  });
  afterAll(async () => {
    await zk?.[Symbol.asyncDispose]();
  });
  afterEach(async () => {
    for (const p of probes.splice(0)) p.socket.destroy();
    await proxy?.close();
  });

  const fresh = async () => {
    proxy = await startFaultProxy({ host: zk.host, port: zk.port });
  };

  it('forwards a four-letter word and a ConnectRequest to the real server', async () => {
    await fresh();
    expect(proxy.connectString).toBe(`127.0.0.1:${proxy.port}`);
    const word = await probe();
    word.socket.write('srvr');
    await word.whenClosed();
    expect(word.received.toString()).toMatch(/Mode: standalone/);

    const session = await probe();
    session.socket.write(connectRequestFrame());
    const response = await session.bytes(RESPONSE_BYTES);
    expect(response.readInt32BE(0)).toBe(37);
    expect(response.readBigInt64BE(12)).not.toBe(0n); // a session id was assigned
    expect(proxy.connectionCount).toBe(1);
    expect(proxy.totalConnections).toBe(2);
  });

  it('pause holds the bytes until resume', async () => {
    await fresh();
    const session = await probe();
    proxy.pause();
    session.socket.write(connectRequestFrame());
    await settle(300);
    expect(session.received.length).toBe(0);
    proxy.resume();
    expect((await session.bytes(RESPONSE_BYTES)).readInt32BE(0)).toBe(37);
  });

  it('drop discards bytes, and forwarding resumes when it is turned off', async () => {
    await fresh();
    const session = await probe();
    proxy.drop(true);
    session.socket.write(connectRequestFrame());
    await settle(300);
    expect(session.received.length).toBe(0);
    proxy.drop(false);
    // The server never saw the first request, so the second one is its first.
    session.socket.write(connectRequestFrame());
    expect((await session.bytes(RESPONSE_BYTES)).readInt32BE(0)).toBe(37);
  });

  it('delay holds every chunk, in order, and lowering it releases them', async () => {
    await fresh();
    const session = await probe();
    proxy.delay(60_000);
    const request = connectRequestFrame();
    // Three chunks: the order must survive the delay, or the server would not parse the request.
    session.socket.write(request.subarray(0, 3));
    await settle(20);
    session.socket.write(request.subarray(3, 30));
    await settle(20);
    session.socket.write(request.subarray(30));
    await settle(300);
    expect(session.received.length).toBe(0);
    proxy.delay(0);
    expect((await session.bytes(RESPONSE_BYTES)).readInt32BE(0)).toBe(37);

    // A short delay releases chunks by itself.
    proxy.delay(100);
    const next = await probe();
    next.socket.write(connectRequestFrame());
    expect((await next.bytes(RESPONSE_BYTES)).readInt32BE(0)).toBe(37);
  });

  it('corrupt rewrites bytes to the client, once', async () => {
    await fresh();
    const session = await probe();
    proxy.corrupt(
      'toClient',
      (chunk) => {
        const copy = Buffer.from(chunk);
        copy.writeInt32BE(0x7fffffff, 0);
        return copy;
      },
      true,
    );
    session.socket.write(connectRequestFrame());
    expect((await session.bytes(4)).readInt32BE(0)).toBe(0x7fffffff);

    const next = await probe();
    next.socket.write(connectRequestFrame());
    expect((await next.bytes(RESPONSE_BYTES)).readInt32BE(0)).toBe(37);
  });

  it('corrupt rewrites bytes to the server, which then closes the connection', async () => {
    await fresh();
    const session = await probe();
    // A negative frame length: the server refuses the frame and drops the connection.
    proxy.corrupt('toServer', (chunk) => {
      const copy = Buffer.from(chunk);
      copy.writeInt32BE(-5, 0);
      return copy;
    });
    session.socket.write(connectRequestFrame());
    await session.whenClosed();
    expect(session.received.length).toBe(0);
  });

  it('cut resets every connection', async () => {
    await fresh();
    const session = await probe();
    session.socket.write(connectRequestFrame());
    await session.bytes(RESPONSE_BYTES);
    proxy.cut();
    await session.whenClosed();
    expect(session.error?.code).toBe('ECONNRESET');
    expect(proxy.connectionCount).toBe(0);
  });

  it('inject sends bytes to either side', async () => {
    await fresh();
    const session = await probe();
    await until(() => proxy.connectionCount === 1); // the proxy has accepted it
    proxy.inject('toClient', Buffer.from('hello'));
    expect((await session.bytes(5)).toString()).toBe('hello');

    const word = await probe();
    await until(() => proxy.connectionCount === 2);
    proxy.inject('toServer', Buffer.from('ruok'));
    await word.whenClosed();
    expect(word.received.toString()).toContain('imok');
  });

  it('refuse closes new connections at once, and can be turned off', async () => {
    await fresh();
    proxy.refuse(true);
    const refused = await probe();
    refused.socket.write('ruok');
    await refused.whenClosed();
    expect(refused.received.length).toBe(0);
    expect(proxy.totalConnections).toBe(0);

    proxy.refuse(false);
    const accepted = await probe();
    accepted.socket.write('ruok');
    await accepted.whenClosed();
    expect(accepted.received.toString()).toBe('imok');
  });
});
