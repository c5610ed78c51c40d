import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostAddress } from '../util/types.js';
import { ReadOnlyProbe } from './read-only-probe.js';

/** A loopback listener answering `isro` as a server in the given mode would (the real thing is in test/). */
async function isroAnswerer(
  answer: 'ro' | 'rw',
): Promise<{ address: HostAddress; asked: string[]; close(): void }> {
  const asked: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      asked.push(chunk.toString());
      socket.end(answer);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { address: { host: '127.0.0.1', port }, asked, close: () => server.close() };
}

/** A port nobody listens on. */
async function deadAddress(): Promise<HostAddress> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return { host: '127.0.0.1', port };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('ReadOnlyProbe', () => {
  it('skips the current host, passes over dead and read-only ones, and reports the first rw', async () => {
    const current = await isroAnswerer('ro');
    const other = await isroAnswerer('ro');
    const writable = await isroAnswerer('rw');
    closers.push(current.close, other.close, writable.close);
    const hosts = [current.address, await deadAddress(), other.address, writable.address];
    const found = await new Promise<number>((resolve) => {
      new ReadOnlyProbe({ hosts, current: 0, connect: {}, onReadWrite: resolve }).start();
    });
    expect(found).toBe(3);
    expect(current.asked).toEqual([]);
    expect(other.asked).toEqual(['isro']);
    expect(writable.asked).toEqual(['isro']);
  });

  it('keeps probing until stopped, then reports nothing', async () => {
    const current = await isroAnswerer('ro');
    const other = await isroAnswerer('ro');
    closers.push(current.close, other.close);
    const reported: number[] = [];
    const probe = new ReadOnlyProbe({
      hosts: [current.address, other.address],
      current: 0,
      connect: {},
      onReadWrite: (i) => reported.push(i),
    });
    probe.start();
    while (other.asked.length < 2) await new Promise((r) => setTimeout(r, 20));
    probe.stop();
    const askedAtStop = other.asked.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(other.asked.length).toBe(askedAtStop);
    expect(reported).toEqual([]);
  });

  it('does nothing with a single host', async () => {
    const only = await isroAnswerer('rw');
    closers.push(only.close);
    const probe = new ReadOnlyProbe({
      hosts: [only.address],
      current: 0,
      connect: {},
      onReadWrite: () => {},
    });
    probe.start();
    await new Promise((r) => setTimeout(r, 300));
    probe.stop();
    expect(only.asked).toEqual([]);
  });
});
