import net, { type Socket } from 'node:net';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadVersionError,
  connect,
  InvalidArgumentError,
  MultiError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  op,
  readOp,
  type WatchEvent,
  type ZooKeeperClient,
  ZooKeeperError,
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
    expect(events).toMatchObject([{ type: 'dataChanged', path: '/watched' }]);
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

describe('multi and multiRead', () => {
  it('applies every op of a transaction and returns each result', async () => {
    await zk.create('/tx', 'v0');
    const results = await zk.multi([
      op.check('/tx', 0),
      op.setData('/tx', 'v1', 0),
      op.create('/tx/child', 'c'),
      op.create('/tx/seq-', null, { mode: 'persistent-sequential' }),
      op.delete('/tx/child'),
    ]);
    expect(results.map((r) => r.type)).toEqual(['check', 'setData', 'create', 'create', 'delete']);
    expect(results[1]).toMatchObject({ type: 'setData', stat: { version: 1 } });
    expect(results[2]).toMatchObject({ type: 'create', path: '/tx/child' });
    expect((results[3] as { path: string }).path).toMatch(/^\/tx\/seq-\d{10}$/);
    expect(await zk.exists('/tx/child')).toBeNull();
    expect(await zk.multi([])).toEqual([]);
  });

  it('applies nothing when one op fails, and names the failed op', async () => {
    await zk.create('/tx2', 'v0');
    const error = await zk
      .multi([op.create('/tx2/a'), op.check('/tx2', 9), op.setData('/tx2', 'never')])
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(MultiError);
    const multi = error as MultiError;
    expect(multi.failedIndex).toBe(1);
    expect(multi.code).toBe('BADVERSION');
    expect(multi.failed.path).toBe('/tx2');
    expect(multi.results.map((r) => r?.code ?? null)).toEqual([null, 'BADVERSION', 'RUNTIMEINCONSISTENCY']);
    expect(await zk.exists('/tx2/a')).toBeNull();
    expect((await zk.getData('/tx2')).data.toString()).toBe('v0');
    await expect(zk.multi([op.create('/tx2')])).rejects.toMatchObject({ code: 'NODEEXISTS', failedIndex: 0 });
  });

  it('checks each multi on its own: a refused multi leaves nothing behind for the next, shorter one', async () => {
    await zk.create('/tx3', 'v0');
    await zk.create('/tx3/a', 'a0');
    // refused on its third op, after two were checked
    await expect(
      zk.multi([op.setData('/tx3', 'never'), op.setData('/tx3/a', 'never'), op.setData('tx3', 'bad')]),
    ).rejects.toMatchObject({ code: 'BADARGUMENTS', operation: 'multi[2].setData' });
    const results = await zk.multi([op.check('/tx3/a', 0)]);
    expect(results).toMatchObject([{ type: 'check' }]);
    // a mixed multi after a uniform one, then the uniform one again: each keeps its own types and paths
    const mixed = await zk.multi([op.setData('/tx3', 'v1'), op.check('/tx3/a', 0), op.delete('/tx3/a')]);
    expect(mixed.map((r) => r.type)).toEqual(['setData', 'check', 'delete']);
    const failed = await zk.multi([op.setData('/tx3', 'v2'), op.setData('/tx3/a', 'gone')]).catch((e) => e);
    expect(failed).toBeInstanceOf(MultiError);
    expect((failed as MultiError).failed).toMatchObject({ code: 'NONODE', path: '/tx3/a' });
    expect((failed as MultiError).failed.operation).toBe('multi[1].setData');
    expect((await zk.getData('/tx3')).data.toString()).toBe('v1');
  });

  it('runs a multi of thousands of ops, and the small ones after it (whose checked record is then a new one)', async () => {
    await zk.create('/tx5', 'v0');
    const many = await zk.multi(Array.from({ length: 2000 }, () => op.check('/tx5', 0)));
    expect(many).toHaveLength(2000);
    expect(many.every((r) => r.type === 'check')).toBe(true);
    expect(await zk.multi([op.setData('/tx5', 'v1', 0), op.check('/tx5', 1)])).toMatchObject([
      { type: 'setData', stat: { version: 1 } },
      { type: 'check' },
    ]);
  });

  it('runs a multi made while another is being checked (an op whose getter calls multi)', async () => {
    await zk.create('/tx4', 'v0');
    await zk.create('/tx4-inner', 'i0');
    let inner: Promise<unknown> | undefined;
    const outerOp = op.setData('/tx4', 'v1');
    Object.defineProperty(outerOp, 'path', {
      get() {
        inner ??= zk.multi([op.check('/tx4-inner', 0), op.setData('/tx4-inner', 'i1')]);
        return '/tx4';
      },
    });
    const outer = await zk.multi([op.check('/tx4', 0), outerOp]);
    expect(outer.map((r) => r.type)).toEqual(['check', 'setData']);
    expect(await inner).toMatchObject([{ type: 'check' }, { type: 'setData', stat: { version: 1 } }]);
    expect((await zk.getData('/tx4')).data.toString()).toBe('v1');
    expect((await zk.getData('/tx4-inner')).data.toString()).toBe('i1');
  });

  it('reads several nodes in one request, each with its own outcome', async () => {
    await zk.create('/mr', 'data');
    await zk.create('/mr/k');
    const [data, kids, missing] = await zk.multiRead([
      readOp.getData('/mr'),
      readOp.getChildren('/mr'),
      readOp.getData('/mr-none'),
    ]);
    expect(data).toMatchObject({ type: 'getData', stat: { dataLength: 4 } });
    expect((data as { data: Buffer }).data.toString()).toBe('data');
    expect(kids).toMatchObject({ type: 'getChildren', children: ['k'] });
    expect(missing).toBeInstanceOf(ZooKeeperError);
    expect(missing).toMatchObject({ code: 'NONODE', path: '/mr-none' });
  });
});
