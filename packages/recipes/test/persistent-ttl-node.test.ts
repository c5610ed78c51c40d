/**
 * PersistentTtlNode on a real server with TTL nodes enabled: Curator 5.9's layout (a PERSISTENT_WITH_TTL parent
 * with our data, a PERSISTENT_WITH_TTL child named `touch` holding the local address, touched every ttl/2),
 * repaired when someone removes it, and after close nothing is touched any more, so the server removes both;
 * closed before its first touch, the TTL parent still goes, where 5.4's container parent stays.
 */

import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localAddressData } from '../src/internal-common/default-data.js';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import { PersistentTtlNode } from '../src/nodes/persistent-ttl-node.js';
import { closeAll, deferred, openClient, type TestClient } from './helpers.js';

describe('PersistentTtlNode (real server, TTL nodes enabled)', () => {
  let server: ZooKeeperServer;
  let owner: TestClient;
  let observer: TestClient;

  beforeAll(async () => {
    // The container manager also expires TTL nodes; a short interval lets the test see it happen.
    server = await startZooKeeper({
      jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true', '-Dznode.container.checkIntervalMs=100'],
    });
    [owner, observer] = await Promise.all([
      openClient(server.connectString),
      openClient(server.connectString),
    ]);
  });

  afterAll(async () => {
    await closeAll([owner, observer]);
    await server?.stop();
  });

  it('keeps a parent with our data and a touched TTL child named touch', async () => {
    await using node = new PersistentTtlNode(owner, '/ttl/service', { ttlMs: 2_000, data: 'payload' });
    expect(node.childPath).toBe('/ttl/service/touch');
    expect(node.touchPeriodMs).toBe(1_000);
    node.start();
    expect(await node.waitForInitialCreate({ timeoutMs: 10_000 })).toBe(true);

    const parent = await observer.getData('/ttl/service');
    expect(new TextDecoder().decode(parent.data)).toBe('payload');
    expect(parent.stat.ephemeralOwner).not.toBe(owner.sessionId); // not an ephemeral: it outlives the session

    await eventually(async () => ((await observer.exists('/ttl/service/touch'))?.version ?? -1) >= 1);
    const touch = await observer.getData('/ttl/service/touch');
    // The server shows 0 as the owner of TTL nodes and containers; that the child is a TTL node shows when
    // it expires after close (below).
    expect(touch.stat.ephemeralOwner).toBe(0n);
    expect(Buffer.from(touch.data)).toEqual(Buffer.from(await localAddressData()));
    // The touches change only the child: the parent's data version stays.
    expect((await observer.exists('/ttl/service'))?.version).toBe(parent.stat.version);
  });

  it('re-creates parent and child when someone removes them', async () => {
    await using node = new PersistentTtlNode(owner, '/ttl/repaired', { ttlMs: 600, data: 'p' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    await eventually(async () => (await observer.exists('/ttl/repaired/touch')) !== null);
    await observer.deleteRecursive('/ttl/repaired');
    await eventually(async () => (await observer.exists('/ttl/repaired/touch')) !== null);
    expect(new TextDecoder().decode((await observer.getData('/ttl/repaired')).data)).toBe('p');
  });

  it('after close nothing touches the child: the server removes it, then the empty parent; no timer is left', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const clearIntervalSpy = vi.spyOn(globalThis, 'clearInterval');
    const node = new PersistentTtlNode(owner, '/ttl/closing', { ttlMs: 400, data: 'p' });
    node.start();
    const touchTimer = setIntervalSpy.mock.results.at(-1)?.value;
    expect(touchTimer).toBeDefined();
    setIntervalSpy.mockRestore();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    // Touched several times over more than one TTL: it stays while touched.
    await eventually(async () => ((await observer.exists('/ttl/closing/touch'))?.version ?? -1) >= 3);

    await node.close();
    expect(clearIntervalSpy).toHaveBeenCalledWith(touchTimer);
    clearIntervalSpy.mockRestore();
    expect(await observer.exists('/ttl/closing')).not.toBeNull(); // close deletes nothing itself
    await eventually(async () => (await observer.exists('/ttl/closing/touch')) === null);
    await eventually(async () => (await observer.exists('/ttl/closing')) === null);
  });

  it("closed before its first touch, the TTL parent is removed by the server; 5.4's container parent stays", async () => {
    const ttl = new PersistentTtlNode(owner, '/ttl/untouched/ttl', { ttlMs: 2_000, data: 'p' });
    const container = new PersistentTtlNode(owner, '/ttl/untouched/container', {
      ttlMs: 2_000,
      data: 'p',
      parentMode: 'container',
    });
    for (const node of [ttl, container]) {
      node.start();
      expect(await node.waitForInitialCreate({ timeoutMs: 10_000 })).toBe(true);
    }
    await Promise.all([ttl.close(), container.close()]);
    // Neither was touched (the first touch comes a second after start), so neither has a child.
    expect(await observer.getChildren('/ttl/untouched/ttl')).toEqual([]);
    expect(await observer.getChildren('/ttl/untouched/container')).toEqual([]);
    await eventually(async () => (await observer.exists('/ttl/untouched/ttl')) === null);
    // A container that never had a child is never reaped: it outlives the TTL parent (apache/curator#1260).
    expect(await observer.exists('/ttl/untouched/container')).not.toBeNull();
    await observer.delete('/ttl/untouched/container');
  });

  it('a PersistentNode in a TTL mode keeps its protected sequential name through a re-create', async () => {
    await using node = new PersistentNode(owner, '/ttl/jobs/job-', {
      mode: 'persistent-sequential-ttl',
      ttlMs: 60_000,
      data: 'j',
      useProtection: true,
    });
    const recreated = deferred<string>();
    node.on('recreated', (path) => recreated.resolve(path));
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const path = node.actualPath as string;
    expect(path).toMatch(/^\/ttl\/jobs\/_c_[0-9a-f-]{36}-job-\d{10}$/);
    await observer.delete(path);
    expect(await recreated.promise).toBe(path); // re-created as persistent-ttl under the same name
    expect(await observer.getChildren('/ttl/jobs')).toEqual([path.slice('/ttl/jobs/'.length)]);
  });

  it('refuses bad arguments with typed errors before anything is sent', () => {
    const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });
    const make = (path: string, options: unknown) => () =>
      new PersistentTtlNode(owner, path, options as never);
    expect(make('nope', { ttlMs: 100, data: '' })).toThrow(invalid);
    expect(make('/t', { ttlMs: 0, data: '' })).toThrow(invalid);
    expect(make('/t', { ttlMs: 1.5, data: '' })).toThrow(invalid);
    expect(make('/t', { ttlMs: 100, data: '', parentMode: 'persistent' })).toThrow(invalid);
    expect(make('/t', { ttlMs: 100 })).toThrow(invalid);
    const badFactor = expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'touchScheduleFactor' });
    expect(make('/t', { ttlMs: 100, data: '', touchScheduleFactor: 0 })).toThrow(badFactor);
    expect(make('/t', { ttlMs: 1, data: '', touchScheduleFactor: 2 })).toThrow(badFactor);
    expect(make('/t', { ttlMs: 100, data: '', childNodeName: 'a/b' })).toThrow(invalid);
    expect(make('/t', undefined)).toThrow(invalid);
  });
});
