/**
 * CuratorCache on a real 3-server ensemble: the server a cache's client is connected to is killed (the
 * client moves to another member, same session), and a seeded randomized run where a second client makes
 * random changes with failovers in between. After each step both engines' caches are compared with a fresh
 * read of the whole tree. The seed is printed in the test name; set CACHE_SEED to replay a run.
 */
import { ensembleFixture, eventually } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuratorCache } from '../src/cache/curator-cache.js';
import { expectCacheEqualsServer } from './cache-helpers.js';
import { openClient, type TestClient } from './helpers.js';

const fixture = ensembleFixture({ size: 3 });
const SEED = Number.parseInt(process.env.CACHE_SEED ?? '', 10) || 1_300_013;

beforeAll(fixture.start, 120_000);
afterAll(fixture.stop);

async function client(connectString: string): Promise<TestClient> {
  const c = await openClient(connectString);
  fixture.track(c);
  return c;
}

/** The member whose `cons` lists this client's session. */
async function memberOf(c: TestClient): Promise<number> {
  const sid = `sid=0x${c.sessionId.toString(16)}`;
  for (let i = 0; i < fixture.ensemble.members.length; i++) {
    const cons = await fixture.ensemble.members[i]?.fourLetterWord('cons').catch(() => '');
    if (cons?.includes(sid)) return i;
  }
  throw new Error(`no member serves session ${sid}`);
}

/** A connect string of every member but `skip`. */
function survivors(skip: number): string {
  return fixture.ensemble.members
    .filter((_, i) => i !== skip)
    .map((m) => `${m.host}:${m.port}`)
    .join(',');
}

/** Kills member `i` and waits for the others to serve (a new leader if it led). */
async function kill(i: number): Promise<void> {
  await fixture.ensemble.kill(i);
  await fixture.ensemble.waitForQuorum();
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random changes under `root`: creates (up to depth 3), data changes, deletes of leaves, re-creates. */
async function randomChanges(writer: TestClient, root: string, random: () => number, count: number) {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  for (let i = 0; i < count; i++) {
    const nodes: string[] = [];
    const walk = async (path: string, depth: number) => {
      nodes.push(path);
      if (depth >= 3) return;
      for (const name of await writer.getChildren(path)) await walk(`${path}/${name}`, depth + 1);
    };
    await walk(root, 0);
    const roll = random();
    const target = pick(nodes);
    if (roll < 0.4 || nodes.length < 4) {
      const parent = target.split('/').length - root.split('/').length >= 3 ? root : target;
      await writer.create(`${parent}/n${Math.floor(random() * 1e6)}`, `c${i}`).catch(() => {});
    } else if (roll < 0.75) {
      await writer.setData(target, `s${i}`);
    } else if (target !== root) {
      const kids = await writer.getChildren(target);
      if (kids.length === 0) {
        await writer.delete(target);
        if (random() < 0.3) await writer.create(target, `again${i}`); // same path, a new node
      }
    }
  }
}

describe('CuratorCache on an ensemble', () => {
  it('equals the tree after the server its client is connected to is killed', async () => {
    const root = '/cache-ensemble/killed';
    const setup = await client(fixture.ensemble.connectString);
    await setup.create(`${root}/a/b`, 'x', { createParents: true });
    const persistentClient = await client(fixture.ensemble.connectString);
    const oneShotClient = await client(fixture.ensemble.connectString);
    await using persistent = new CuratorCache(persistentClient, root, { engine: 'persistent-watch' });
    await using oneShot = new CuratorCache(oneShotClient, root, { engine: 'one-shot-watches' });
    await persistent.start();
    await oneShot.start();
    await persistent.awaitInitialized({ timeoutMs: 10_000 });
    await oneShot.awaitInitialized({ timeoutMs: 10_000 });

    const victim = await memberOf(persistentClient);
    await kill(victim);
    const writer = await client(survivors(victim));
    await writer.setData(`${root}/a/b`, 'y');
    await writer.create(`${root}/a/c`, 'c');
    await writer.delete(`${root}/a/b`);
    await eventually(() => persistentClient.state === 'connected' && oneShotClient.state === 'connected', {
      timeoutMs: 30_000,
    });
    await expectCacheEqualsServer(persistent, writer);
    await expectCacheEqualsServer(oneShot, writer);
    await fixture.ensemble.start(victim);
    await fixture.ensemble.waitForQuorum();
  }, 120_000);

  it(`equals the tree after seeded random changes with failovers in between (seed ${SEED})`, async () => {
    const random = prng(SEED);
    const root = '/cache-ensemble/random';
    const setup = await client(fixture.ensemble.connectString);
    await setup.create(root, 'r', { createParents: true });
    const persistentClient = await client(fixture.ensemble.connectString);
    const oneShotClient = await client(fixture.ensemble.connectString);
    await using persistent = new CuratorCache(persistentClient, root, { engine: 'persistent-watch' });
    await using oneShot = new CuratorCache(oneShotClient, root, { engine: 'one-shot-watches' });
    await persistent.start();
    await oneShot.start();

    for (let round = 0; round < 3; round++) {
      // Rounds 1 and 2 start with a failover: the member serving one of the caches dies.
      const victim = round === 0 ? -1 : await memberOf(round === 1 ? persistentClient : oneShotClient);
      if (victim >= 0) await kill(victim);
      const writer = await client(victim >= 0 ? survivors(victim) : fixture.ensemble.connectString);
      await randomChanges(writer, root, random, 25);
      await expectCacheEqualsServer(persistent, writer);
      await expectCacheEqualsServer(oneShot, writer);
      expect(persistent.size).toBeGreaterThan(1);
      if (victim >= 0) {
        await fixture.ensemble.start(victim);
        await fixture.ensemble.waitForQuorum();
      }
    }
  }, 180_000);
});
