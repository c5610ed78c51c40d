/**
 * Protected creates and guaranteed deletes (Curator's withProtection() and guaranteed()) on a real server,
 * with the fault proxy losing the reply of a write the server did apply.
 */
import { nextState } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { connect, InvalidArgumentError, OperationTimeoutError, type ZooKeeperClient } from '../src/index.js';
import { failOnProcessErrors, until, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();
const zkServer = useProxiedServer();
const PROTECTED = /^_c_[0-9a-f-]{36}-job-\d{10}$/;

/** Swallows every byte the server sends until the connection is cut (then the client reconnects). */
function loseReplies(): { restore: () => void } {
  zkServer.proxy.corrupt('toClient', () => Buffer.alloc(0));
  return {
    restore: () => {
      zkServer.proxy.clearCorruption();
      zkServer.proxy.cut();
    },
  };
}

async function proxied(): Promise<ZooKeeperClient> {
  return connect({ connectString: zkServer.proxy.connectString, sessionTimeoutMs: 20_000 });
}

describe('protected create', () => {
  it('finds its node again after the reply was lost: one node, never two', async () => {
    const zk = await proxied();
    await zkServer.admin.create('/jobs-p');
    const lost = loseReplies();
    const creating = zk.create('/jobs-p/job-', 'work', { mode: 'ephemeral-sequential', protected: true });
    await until(async () => (await zkServer.admin.getChildren('/jobs-p')).length === 1);
    lost.restore();
    const path = await creating;
    const children = await zkServer.admin.getChildren('/jobs-p');
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(PROTECTED);
    expect(path).toBe(`/jobs-p/${children[0]}`);
    // It is our session's node.
    expect((await zkServer.admin.exists(path))?.ephemeralOwner).toBe(zk.sessionId);
    await zk.close();
  });

  it('names a plain create as Curator does and returns its Stat through create2', async () => {
    const zk = await proxied();
    await zkServer.admin.create('/jobs-q');
    const { path, stat } = await zk.create2('/jobs-q/job-', null, {
      mode: 'persistent-sequential',
      protected: true,
    });
    expect(path.split('/').at(-1)).toMatch(PROTECTED);
    expect(stat.czxid).toBeGreaterThan(0n);
    await zk.close();
  });

  it('refuses a bad protected option before anything is sent', async () => {
    const zk = await proxied();
    for (const bad of ['yes', { maxAttempts: 0 }, { maxAttempts: 1.5 }]) {
      await expect(zk.create('/x', null, { protected: bad as never })).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    }
    expect(await zkServer.admin.exists('/x')).toBeNull();
    await zk.close();
  });
});

describe('guaranteed delete', () => {
  it('is seen through when its reply is lost', async () => {
    const zk = await proxied();
    await zkServer.admin.create('/gone-1');
    const lost = loseReplies();
    const deleting = zk.delete('/gone-1', { guaranteed: true });
    await until(async () => (await zkServer.admin.exists('/gone-1')) === null);
    lost.restore();
    await expect(deleting).resolves.toBeUndefined();
    await zk.close();
  });

  it('keeps retrying after the caller stopped waiting, until the node is gone', async () => {
    const zk = await proxied();
    await zkServer.admin.create('/gone-2');
    zkServer.proxy.pause();
    const suspended = nextState(zk, 'suspended');
    zkServer.proxy.cut();
    await suspended;
    await expect(zk.delete('/gone-2', { guaranteed: true, timeoutMs: 100 })).rejects.toBeInstanceOf(
      OperationTimeoutError,
    );
    zkServer.proxy.resume();
    await until(async () => (await zkServer.admin.exists('/gone-2')) === null);
    await zk.close();
  });

  it('rejects what retrying cannot fix (a node with children)', async () => {
    const zk = await proxied();
    await zkServer.admin.create('/full');
    await zkServer.admin.create('/full/child');
    await expect(zk.delete('/full', { guaranteed: true })).rejects.toMatchObject({ code: 'NOTEMPTY' });
    await expect(zk.delete('/full', { guaranteed: 'yes' as never })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await zk.close();
  });
});
