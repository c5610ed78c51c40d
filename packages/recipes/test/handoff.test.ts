/**
 * Session hand-off of recipes (issue 43 §3), on a real server: a zero-downtime restart. The old side (a
 * child process, or a worker thread: handoff-child.ts) holds an InterProcessMutex, keeps an ephemeral
 * PersistentNode and leads a LeaderLatch, hands the three on and detaches its session; this side resumes
 * the session and the recipes, and keeps all three: nobody else gets the lock or the leadership in
 * between, and the node is the same node of the same session.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import {
  connect,
  decodeSessionHandoff,
  type SessionHandoff,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HandoffRefusedError,
  InterProcessMutex,
  InvalidRecipeArgumentError,
  LeaderLatch,
  NotLockOwnerError,
  PersistentNode,
  type RecipeHandoff,
} from '../src/index.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const childScript = new URL('./handoff-child.ts', import.meta.url);

let server: ZooKeeperServer;
let other: ZooKeeperClient;
beforeAll(async () => {
  server = await startZooKeeper();
  other = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await other?.close();
  await server?.[Symbol.asyncDispose]();
});

interface Handed {
  session: SessionHandoff;
  recipes: { mutex: RecipeHandoff; node: RecipeHandoff; latch: RecipeHandoff };
}

interface Paths {
  connectString: string;
  lockPath: string;
  nodePath: string;
  latchPath: string;
}

function pathsFor(name: string): Paths {
  return {
    connectString: server.connectString,
    lockPath: `/handoff/${name}/lock`,
    nodePath: `/handoff/${name}/nodes/member`,
    latchPath: `/handoff/${name}/latch`,
  };
}

/** Runs the old side in a process (tsx) and reads its one HANDOFF line. */
function handOffFromProcess(paths: Paths): Promise<Handed> {
  const child = spawn(
    tsx,
    [fileURLToPath(childScript), paths.connectString, paths.lockPath, paths.nodePath, paths.latchPath],
    { cwd: packageDir, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise<Handed>((resolve, reject) => {
    let handed: Handed | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      const [word, session, recipes] = line.split(' ');
      if (word !== 'HANDOFF' || session === undefined || recipes === undefined) return;
      handed = { session: decodeSessionHandoff(session), recipes: JSON.parse(recipes) };
    });
    child.once('error', reject);
    // The child ends by itself once detached: nothing (socket, timer) keeps it alive.
    child.once('exit', (code) =>
      handed !== undefined && code === 0
        ? resolve(handed)
        : reject(new Error(`the hand-off child exited with ${code} before handing off`)),
    );
  });
}

/** Runs the old side in a worker thread (tsx's loader, this package's tsconfig) and takes its message. */
function handOffFromWorker(paths: Paths): Promise<Handed> {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(
    require.resolve('tsx/package.json').replace('package.json', 'dist/esm/api/index.mjs'),
  );
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  const bootstrap = `(async () => {
    const { register } = await import(${JSON.stringify(tsxApi.href)});
    register({ tsconfig: ${JSON.stringify(tsconfig)} });
    await import(${JSON.stringify(childScript.href)});
  })()`;
  const worker = new Worker(bootstrap, { eval: true, workerData: paths });
  return new Promise<Handed>((resolve, reject) => {
    let handed: Handed | undefined;
    worker.once('message', (message: Handed) => {
      handed = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      handed !== undefined && code === 0
        ? resolve(handed)
        : reject(new Error(`the hand-off worker exited with ${code} before handing off`)),
    );
  });
}

/** Resumes what `handed` names and checks that the lock, the node and the leadership were all kept. */
async function resumeAndCheck(paths: Paths, handed: Handed): Promise<void> {
  const { session, recipes } = handed;
  const childSession = BigInt.asIntN(64, BigInt(`0x${session.sessionId}`));
  // Between the detach and the resume: the session's node is there, and a second contender queues.
  expect((await other.exists(recipes.node.nodePath))?.ephemeralOwner).toBe(childSession);
  const contender = new LeaderLatch(other, paths.latchPath, { id: 'second' });
  await contender.start();
  expect(contender.hasLeadership).toBe(false);

  const client = await connect({ connectString: paths.connectString, session });
  try {
    expect(client.sessionId).toBe(childSession);
    const mutex = await InterProcessMutex.resume(client, recipes.mutex);
    const node = await PersistentNode.resume(client, recipes.node, {
      mode: 'ephemeral',
      data: 'kept',
      useProtection: true,
    });
    const latch = await LeaderLatch.resume(client, recipes.latch, { id: 'first' });

    // The lock: still ours, the same node; a second client cannot take it until we release it.
    expect(mutex.isAcquiredInThisProcess()).toBe(true);
    expect(mutex.lockNodePath).toBe(recipes.mutex.nodePath);
    expect(await mutex.getParticipantNodes()).toEqual([recipes.mutex.nodePath]);
    const rival = new InterProcessMutex(other, paths.lockPath);
    expect(await rival.acquire({ timeoutMs: 500 })).toBe(false);

    // The node: the same one (no second node under its parent), of the same session, still kept.
    expect(node.actualPath).toBe(recipes.node.nodePath);
    const parentPath = paths.nodePath.slice(0, paths.nodePath.lastIndexOf('/'));
    expect(await other.getChildren(parentPath)).toEqual([recipes.node.nodePath.slice(parentPath.length + 1)]);
    expect(await node.waitForInitialCreate({ timeoutMs: 30_000 })).toBe(true);
    await other.delete(recipes.node.nodePath);
    await eventually(
      async () => (await other.exists(recipes.node.nodePath))?.ephemeralOwner === childSession,
      {
        what: 'the resumed PersistentNode made its node again',
        timeoutMs: 30_000,
      },
    );

    // The leadership: ours at once, the same node first in line; the other contender waits.
    expect(latch.hasLeadership).toBe(true);
    expect(latch.ourPath).toBe(recipes.latch.nodePath);
    expect(contender.hasLeadership).toBe(false);
    expect((await latch.getLeader()).id).toBe('first');
    expect((await latch.getParticipants()).map((p) => p.id)).toEqual(['first', 'second']);

    // Released and closed on this side, the others get their turn.
    await mutex.release();
    expect(await rival.acquire({ timeoutMs: 30_000 })).toBe(true);
    await rival.release();
    await latch.close();
    expect(await contender.await({ timeoutMs: 30_000 })).toBe(true);
    await node.close();
    expect(await other.exists(recipes.node.nodePath)).toBeNull();
  } finally {
    await contender.close();
    await client.close();
  }
}

describe('recipes survive a session hand-off', () => {
  it('from another process (a zero-downtime restart)', async () => {
    const paths = pathsFor('process');
    await resumeAndCheck(paths, await handOffFromProcess(paths));
  });

  it('from a worker thread (the hand-off object through postMessage as it is)', async () => {
    const paths = pathsFor('worker');
    await resumeAndCheck(paths, await handOffFromWorker(paths));
  });
});

describe('hand-off of recipes in one process', () => {
  it('a fresh client of the same session resumes the hold count; the old objects hold nothing', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 20_000 });
    const mutex = new InterProcessMutex(first, '/handoff/reentrant/lock');
    expect(await mutex.acquire()).toBe(true);
    expect(await mutex.acquire()).toBe(true);
    const handoff = mutex.handOff();
    expect(handoff).toMatchObject({
      recipe: 'InterProcessMutex',
      path: '/handoff/reentrant/lock',
      holdCount: 2,
    });
    expect(mutex.isAcquiredInThisProcess()).toBe(false);
    await expect(mutex.release()).rejects.toBeInstanceOf(NotLockOwnerError);
    expect(() => mutex.handOff()).toThrow(NotLockOwnerError);
    const session = await first.detach();
    const second = await connect({ connectString: server.connectString, session });
    try {
      const resumed = await InterProcessMutex.resume(second, JSON.parse(JSON.stringify(handoff)));
      expect(resumed.holdCount).toBe(2);
      await resumed.release();
      expect(await other.exists(handoff.nodePath)).not.toBeNull();
      await resumed.release();
      expect(await other.exists(handoff.nodePath)).toBeNull();
    } finally {
      await second.close();
    }
  });

  it('refuses a hand-off whose node is another session’s or gone', async () => {
    const holder = await connect({ connectString: server.connectString });
    const stranger = await connect({ connectString: server.connectString });
    try {
      const mutex = new InterProcessMutex(holder, '/handoff/foreign/lock');
      expect(await mutex.acquire()).toBe(true);
      const handoff = mutex.handOff();
      // A client of another session may not adopt the node: it would hold a lock it cannot keep.
      await expect(InterProcessMutex.resume(stranger, handoff)).rejects.toBeInstanceOf(HandoffRefusedError);
      const latch = new LeaderLatch(holder, '/handoff/foreign/latch');
      await latch.start();
      const latchHandoff = latch.handOff();
      await holder.delete(latchHandoff.nodePath);
      await expect(LeaderLatch.resume(holder, latchHandoff)).rejects.toBeInstanceOf(HandoffRefusedError);
      await holder.delete(handoff.nodePath);
    } finally {
      await holder.close();
      await stranger.close();
    }
  });

  it('refuses bad hand-offs before sending anything', async () => {
    const good: RecipeHandoff = {
      recipe: 'InterProcessMutex',
      path: '/handoff/bad/lock',
      nodePath: '/handoff/bad/lock/_c_x-lock-0000000000',
      holdCount: 1,
    };
    // A client that has never connected: any request would hang, so a refusal proves nothing was sent.
    const { createClient } = await import('@zkwire/zk-wire-client');
    const nowhere = createClient({ connectString: '127.0.0.1:1' });
    try {
      for (const bad of [
        null,
        'handoff',
        { ...good, recipe: 'LeaderLatch' },
        { ...good, path: 'relative' },
        { ...good, nodePath: '/handoff/elsewhere/_c_x-lock-0000000000' },
        { ...good, nodePath: '/handoff/bad/lock/deeper/_c_x-lock-0000000000' },
        { ...good, holdCount: 0 },
        { ...good, holdCount: '1' },
      ]) {
        await expect(InterProcessMutex.resume(nowhere, bad as RecipeHandoff)).rejects.toBeInstanceOf(
          InvalidRecipeArgumentError,
        );
      }
      await expect(LeaderLatch.resume(nowhere, good)).rejects.toBeInstanceOf(InvalidRecipeArgumentError);
      await expect(
        PersistentNode.resume(
          nowhere,
          { ...good, recipe: 'PersistentNode' },
          { mode: 'ephemeral', data: '' },
        ),
      ).rejects.toBeInstanceOf(InvalidRecipeArgumentError);
      expect(nowhere.state).toBe('connecting');
    } finally {
      await nowhere.close();
    }
  });
});
