import net, { type Socket } from 'node:net';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadVersionError,
  connect,
  InvalidArgumentError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  type WatchEvent,
  type ZooKeeperClient,
} from '../src/index.js';

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 10_000 });
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
});

describe('basic operations against a real server', () => {
  it('negotiates a session', () => {
    expect(zk.state).toBe('connected');
    expect(zk.sessionId).not.toBe(0n);
    expect(zk.sessionPassword).toHaveLength(16);
    expect(zk.negotiatedTimeoutMs).toBe(10_000);
  });

  it('creates, reads, writes and deletes a node', async () => {
    expect(await zk.create('/basic', 'hello')).toBe('/basic');
    const { data, stat } = await zk.getData('/basic');
    expect(data.toString()).toBe('hello');
    expect(stat.version).toBe(0);
    expect(stat.dataLength).toBe(5);
    expect(typeof stat.czxid).toBe('bigint');
    const stat2 = await zk.setData('/basic', Buffer.from('world'), { version: 0 });
    expect(stat2.version).toBe(1);
    expect((await zk.getData('/basic')).data.toString()).toBe('world');
    expect(await zk.exists('/basic')).toMatchObject({ version: 1 });
    await zk.delete('/basic', { version: 1 });
    expect(await zk.exists('/basic')).toBeNull();
  });

  it('maps server errors to typed errors', async () => {
    await expect(zk.getData('/missing')).rejects.toBeInstanceOf(NoNodeError);
    await expect(zk.getData('/missing')).rejects.toMatchObject({
      code: 'NONODE',
      errno: -101,
      path: '/missing',
      operation: 'getData',
    });
    await zk.create('/errs', null);
    await expect(zk.create('/errs')).rejects.toBeInstanceOf(NodeExistsError);
    await expect(zk.setData('/errs', 'x', { version: 7 })).rejects.toBeInstanceOf(BadVersionError);
    await zk.create('/errs/child');
    await expect(zk.delete('/errs')).rejects.toBeInstanceOf(NotEmptyError);
    await zk.deleteRecursive('/errs');
    expect(await zk.exists('/errs')).toBeNull();
  });

  it('refuses bad arguments before sending', async () => {
    await expect(zk.getData('no-slash')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(zk.create('/a/', 'x')).rejects.toMatchObject({ argument: 'path' });
    await expect(zk.setData('/a', 'x', { version: -2 })).rejects.toMatchObject({ argument: 'version' });
    await expect(zk.create('/big', Buffer.alloc(2_000_000))).rejects.toMatchObject({ argument: 'data' });
    expect(zk.state).toBe('connected');
  });

  it('reports TTL nodes on a server without extended types as UNIMPLEMENTED, and carries on', async () => {
    await expect(zk.create('/ttl-off', 'x', { mode: 'persistent-ttl', ttlMs: 1000 })).rejects.toMatchObject({
      code: 'UNIMPLEMENTED',
      errno: -6,
      path: '/ttl-off',
    });
    await zk.connected();
    expect(await zk.exists('/ttl-off')).toBeNull();
  });

  it('lists children with and without Stat', async () => {
    await zk.create('/kids');
    await zk.create('/kids/a');
    await zk.create('/kids/b');
    expect((await zk.getChildren('/kids')).sort()).toEqual(['a', 'b']);
    const { children, stat } = await zk.getChildren2('/kids');
    expect(children.sort()).toEqual(['a', 'b']);
    expect(stat.numChildren).toBe(2);
  });

  it('fires a one-shot data watch once', async () => {
    await zk.create('/watched', 'v0');
    const events: WatchEvent[] = [];
    await zk.getData('/watched', { watch: (e) => events.push(e) });
    await zk.setData('/watched', 'v1');
    await zk.setData('/watched', 'v2');
    await zk.sync('/watched');
    expect(events).toEqual([{ type: 'dataChanged', path: '/watched' }]);
  });

  it('coalesces the requests of one tick into one socket write', async () => {
    const writes: number[] = [];
    const counting = await connect({
      connectString: server.connectString,
      connectionFactory: (host, port) => {
        const socket = net.connect({ host, port });
        const write = socket.write.bind(socket) as (chunk: Buffer) => boolean;
        socket.write = ((chunk: Buffer) => {
          writes.push(chunk.length);
          return write(chunk);
        }) as Socket['write'];
        return socket;
      },
    });
    await counting.create('/coalesce', 'x');
    writes.length = 0;
    const replies = await Promise.all(Array.from({ length: 100 }, () => counting.getData('/coalesce')));
    expect(replies.every((r) => r.data.toString() === 'x')).toBe(true);
    // getData('/coalesce') is 4 + 8 + 4 + 9 + 1 = 26 bytes; all 100 went out together.
    expect(writes).toEqual([2600]);
    await counting.close();
  });

  it('pipelines many requests and answers each in order', async () => {
    await zk.create('/pipe', 'x'.repeat(100));
    const replies = await Promise.all(Array.from({ length: 1000 }, () => zk.getData('/pipe')));
    expect(replies).toHaveLength(1000);
    for (const r of replies) expect(r.data.length).toBe(100);
  });
});
