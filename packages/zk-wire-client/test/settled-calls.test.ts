/**
 * Once a call has settled and its caller has let go of the result, the client holds nothing of it: a
 * long-lived client whose last call returned a large value must not keep that value alive until its next
 * call. (The pipeline hands each promise's settle functions over through one shared executor; what it hands
 * over is cleared at once, or the last call's promise and value would stay reachable from the module.)
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ZooKeeperClient } from '../src/index.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

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

describe('a settled call', () => {
  it("leaves its result collectable once the caller lets go (the client's last call, nothing after it)", async () => {
    const held = await (async () => {
      const result = await zk.getData('/held');
      expect(result.data.length).toBe(64 * 1024);
      return new WeakRef(result);
    })();
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(held.deref()).toBeUndefined();
  });

  it('leaves a failed call’s error collectable too', async () => {
    const held = await (async () => {
      const error = await zk.getData('/missing').catch((e: unknown) => e as object);
      expect(error).toBeInstanceOf(Error);
      return new WeakRef(error);
    })();
    await nextTurn();
    collectGarbage();
    await nextTurn();
    expect(held.deref()).toBeUndefined();
  });
});
