/**
 * Once a call has settled and its caller has let go of the result, the client holds nothing of it: a
 * long-lived client whose last call returned a large value must not keep that value alive until its next
 * call. (The pipeline hands each promise's settle functions over through one shared executor; what it hands
 * over is cleared at once, or the last call's promise and value would stay reachable from the module.)
 */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, op, type ZooKeeperClient } from '../src/index.js';
import { collectGarbage } from './collect-garbage.js';

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 10_000 });
  await zk.create('/held', Buffer.alloc(64 * 1024, 7));
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
});

/** A later macrotask: a WeakRef's target is kept until the job that made or read the WeakRef ends. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Whether what `outcome` gave, held only weakly once it returns, is gone after a full collection. */
async function collectedAfter(outcome: () => Promise<object>): Promise<boolean> {
  const held = new WeakRef(await outcome());
  await nextTurn();
  collectGarbage();
  await nextTurn();
  return held.deref() === undefined;
}

describe('a settled call', () => {
  it("leaves its result collectable once the caller lets go (the client's last call, nothing after it)", async () => {
    const collected = await collectedAfter(async () => {
      const result = await zk.getData('/held');
      expect(result.data.length).toBe(64 * 1024);
      return result;
    });
    expect(collected).toBe(true);
  });

  it('leaves the data a multi sent collectable (the client checks every multi into one reused record)', async () => {
    await zk.create('/multi-held');
    const collected = await collectedAfter(async () => {
      const data = Buffer.alloc(64 * 1024, 3);
      const results = await zk.multi([op.setData('/multi-held', data), op.check('/multi-held', 1)]);
      expect(results.map((r) => r.type)).toEqual(['setData', 'check']);
      return data;
    });
    expect(collected).toBe(true);
  });

  it('leaves a failed call’s error collectable too', async () => {
    const collected = await collectedAfter(async () => {
      const error = await zk.getData('/missing').catch((e: unknown) => e as object);
      expect(error).toBeInstanceOf(Error);
      return error;
    });
    expect(collected).toBe(true);
  });
});
