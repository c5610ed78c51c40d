/*
 * Watch modes mixed on one path, in the orders the client README describes, against the run's release
 * (ZKWIRE_ZK_VERSION). Servers 3.6 to 3.8 keep one watch mode per path and connection (ZOOKEEPER-4466): what
 * they break, the client cannot mend in every order, and the README says which.
 */
import { findZooKeeper, startZooKeeper, versionAtLeast, type ZooKeeperServer } from '@zkwire/testing';
import { connect, type WatchEvent, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const VERSION = findZooKeeper().version;
const ONE_MODE_PER_PATH = versionAtLeast(VERSION, '3.6.0') && !versionAtLeast(VERSION, '3.9.0');

let server: ZooKeeperServer;
let zk: ZooKeeperClient;
let other: ZooKeeperClient;

beforeAll(async () => {
  server = await startZooKeeper({ version: VERSION });
  zk = await connect({ connectString: server.connectString });
  other = await connect({ connectString: server.connectString });
});

afterAll(async () => {
  await zk?.close();
  await other?.close();
  await server?.[Symbol.asyncDispose]();
});

/** A round trip on both sessions: every event caused before it has been delivered. */
async function settle(): Promise<void> {
  await other.sync('/');
  await zk.sync('/');
}

const recorder = (list: string[], tag: string) => (e: WatchEvent) => list.push(`${tag} ${e.type} ${e.path}`);

// Each release gets the tests of what it has (none skipped): 3.5 has no persistent watches.
const describeIf = (condition: boolean) => (condition ? describe : () => {});

describeIf(!versionAtLeast(VERSION, '3.6.0'))(`no persistent watches on ZooKeeper ${VERSION}`, () => {
  it('refuses addWatch before sending, and keeps one-shot watches working', async () => {
    await expect(zk.addWatch('/', 'persistent-recursive', () => {})).rejects.toMatchObject({
      code: 'UNSUPPORTEDBYSERVER',
    });
    const seen: string[] = [];
    await other.create('/old-server', 'x');
    await zk.getChildren('/old-server', { watch: recorder(seen, 'one-shot') });
    await other.create('/old-server/c', 'c');
    await settle();
    expect(seen).toEqual(['one-shot childrenChanged /old-server']);
  });
});

describeIf(versionAtLeast(VERSION, '3.6.0'))(`mixed watch modes on ZooKeeper ${VERSION}`, () => {
  it(`a one-shot child watch set before a recursive watch on the same path ${ONE_MODE_PER_PATH ? 'is lost by the server' : 'fires'}`, async () => {
    const seen: string[] = [];
    await other.create('/one-shot-first', 'x');
    await zk.getChildren('/one-shot-first', { watch: recorder(seen, 'one-shot') });
    await zk.addWatch('/one-shot-first', 'persistent-recursive', recorder(seen, 'recursive'));
    await other.create('/one-shot-first/c', 'c');
    await settle();
    const fired = seen.includes('one-shot childrenChanged /one-shot-first');
    expect(fired).toBe(!ONE_MODE_PER_PATH);
    expect(seen).toContain('recursive created /one-shot-first/c');
  });

  it('a persistent watch under a recursive one keeps both firing', async () => {
    const seen: string[] = [];
    await other.create('/tree', 'x');
    await other.create('/tree/sub', 'x');
    await zk.addWatch('/tree', 'persistent-recursive', recorder(seen, 'recursive'));
    await zk.addWatch('/tree/sub', 'persistent', recorder(seen, 'persistent'));
    await other.setData('/tree/sub', 'y');
    await other.create('/tree/sub/x', 'x');
    await other.setData('/tree/sub/x', 'y');
    await other.create('/tree/other', 'x');
    await settle();
    expect(seen).toEqual([
      'persistent dataChanged /tree/sub',
      'recursive dataChanged /tree/sub',
      'recursive created /tree/sub/x',
      'persistent childrenChanged /tree/sub',
      'recursive dataChanged /tree/sub/x',
      'recursive created /tree/other',
    ]);
  });

  it('a one-shot read of a persistently watched path keeps the persistent watch (the client does not arm it)', async () => {
    const seen: string[] = [];
    await other.create('/persistent-first', 'x');
    await zk.addWatch('/persistent-first', 'persistent', recorder(seen, 'persistent'));
    await zk.getData('/persistent-first', { watch: recorder(seen, 'one-shot') });
    await other.setData('/persistent-first', 'y');
    await other.setData('/persistent-first', 'z');
    await settle();
    expect(seen).toEqual([
      'one-shot dataChanged /persistent-first',
      'persistent dataChanged /persistent-first',
      'persistent dataChanged /persistent-first',
    ]);
  });
});
