/**
 * The old side of a session hand-off, for handoff.test.ts: connects, takes the lock, keeps an ephemeral
 * PersistentNode, leads a LeaderLatch, then hands the three on and detaches the session.
 *
 *   as a process:  tsx handoff-child.ts <connectString> <lockPath> <nodePath> <latchPath>
 *                  prints "HANDOFF <encodeSessionHandoff(session)> <JSON of the recipes' hand-offs>", exits
 *   as a worker:   workerData { connectString, lockPath, nodePath, latchPath }; posts { session, recipes }
 *                  (the client's hand-off object as it is: structured clone carries it), then ends
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { connect, encodeSessionHandoff } from '@zkwire/zk-wire-client';
import { InterProcessMutex, LeaderLatch, PersistentNode } from '../src/index.js';

interface Paths {
  connectString: string;
  lockPath: string;
  nodePath: string;
  latchPath: string;
}

const paths: Paths = isMainThread
  ? (([connectString, lockPath, nodePath, latchPath]) => ({ connectString, lockPath, nodePath, latchPath }))(
      process.argv.slice(2) as [string, string, string, string],
    )
  : (workerData as Paths);

const WAIT = { timeoutMs: 30_000 };
const client = await connect({ connectString: paths.connectString, sessionTimeoutMs: 20_000 });
const mutex = new InterProcessMutex(client, paths.lockPath);
if (!(await mutex.acquire(WAIT))) throw new Error('the child could not take the lock');
const node = new PersistentNode(client, paths.nodePath, {
  mode: 'ephemeral',
  data: 'kept',
  useProtection: true,
});
node.start();
if (!(await node.waitForInitialCreate(WAIT))) throw new Error('the child could not create its node');
const latch = new LeaderLatch(client, paths.latchPath, { id: 'first' });
await latch.start();
if (!(await latch.await(WAIT))) throw new Error('the child did not become leader');

const recipes = { mutex: mutex.handOff(), node: node.handOff(), latch: latch.handOff() };
const session = await client.detach();
if (isMainThread)
  process.stdout.write(`HANDOFF ${encodeSessionHandoff(session)} ${JSON.stringify(recipes)}\n`);
else parentPort?.postMessage({ session, recipes });
