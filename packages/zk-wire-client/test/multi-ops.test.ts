/**
 * multi and multiRead against a real server: transactions applied whole or not at all, the failed op named,
 * each multi checked on its own (the client reuses one record for checking ops), and reads batched in one
 * request with an outcome each.
 */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, MultiError, op, readOp, type ZooKeeperClient, ZooKeeperError } from '../src/index.js';

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
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
    expect(results).toEqual([{ type: 'check' }]);
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
    expect(kids).toEqual({ type: 'getChildren', children: ['k'] });
    expect(missing).toBeInstanceOf(ZooKeeperError);
    expect(missing).toMatchObject({ code: 'NONODE', path: '/mr-none' });
  });
});
