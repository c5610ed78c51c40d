/**
 * Session hand-off against real Curator contenders (the Java driver: Curator 5.9.0 by default): a Curator
 * InterProcessMutex and a Curator LeaderLatch on the same paths see our lock and our leadership kept through
 * the detach and the resume. The adopted nodes keep their names, so Curator's own rules (lowest node holds,
 * each waits on its predecessor, CURATOR-696's owner check of its own node) go on as before.
 */
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InterProcessMutex, LeaderLatch } from '../src/index.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

let server: ZooKeeperServer;
let javaLocks: JavaDriver;
let javaElections: JavaDriver;

beforeAll(async () => {
  server = await startZooKeeper();
  [javaLocks, javaElections] = await Promise.all([
    startJavaDriver({ connectString: server.connectString, handlers: ['LockHandler.java'] }),
    startJavaDriver({
      connectString: server.connectString,
      handlers: ['drivers-elections/ElectionsHandler.java'],
    }),
  ]);
});

afterAll(async () => {
  await javaLocks?.close();
  await javaElections?.close();
  await server?.[Symbol.asyncDispose]();
});

it('a Curator mutex and a Curator latch see our hold and our leadership kept across the hand-off', async () => {
  const lockPath = '/handoff-curator/lock';
  const latchPath = '/handoff-curator/latch';
  const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 20_000 });
  const mutex = new InterProcessMutex(first, lockPath);
  expect(await mutex.acquire()).toBe(true);
  const latch = new LeaderLatch(first, latchPath, { id: 'node' });
  await latch.start();
  expect(await latch.await({ timeoutMs: 20_000 })).toBe(true);
  await javaElections.call('a', 'latch.start', 'j', latchPath, 'java');
  // Curator's start() makes its node in the background.
  await eventually(async () => (await javaElections.call('a', 'latch.participants', 'j')) === '*node,java', {
    what: "Curator's latch joined behind ours",
  });
  expect(await javaLocks.call('a', 'mutex.acquire', lockPath, 300)).toBe('false');

  const handoffs = { mutex: mutex.handOff(), latch: latch.handOff() };
  const session = await first.detach();
  // Between the detach and the resume the session lives: Curator still sees our nodes first in line.
  expect(await javaLocks.call('a', 'mutex.acquire', lockPath, 300)).toBe('false');
  expect(await javaElections.call('a', 'latch.leader', 'j')).toBe('node');

  const resumed = await connect({ connectString: server.connectString, session });
  try {
    const heldMutex = await InterProcessMutex.resume(resumed, handoffs.mutex);
    const sameLatch = await LeaderLatch.resume(resumed, handoffs.latch, { id: 'node' });
    expect(sameLatch.hasLeadership).toBe(true);
    expect(await javaElections.call('a', 'latch.has', 'j')).toBe('false');
    expect(await javaElections.call('a', 'latch.participants', 'j')).toBe('*node,java');
    expect(await javaLocks.call('a', 'mutex.acquire', lockPath, 300)).toBe('false');

    // Our release and close hand the lock and the leadership to Curator, as from any holder.
    await heldMutex.release();
    expect(await javaLocks.call('a', 'mutex.acquire', lockPath, 30_000)).toBe('true');
    await javaLocks.call('a', 'mutex.release', lockPath);
    await sameLatch.close();
    expect(await javaElections.call('a', 'latch.await', 'j', 30_000)).toBe('true');
  } finally {
    await javaElections.call('a', 'latch.close', 'j');
    await resumed.close();
  }
});
