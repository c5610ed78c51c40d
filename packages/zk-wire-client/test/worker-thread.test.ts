/**
 * The client works from a worker_threads worker (issue 14 §4), against a real server: the worker loads the
 * client from source through tsx (tsconfig paths), as the main thread does through vitest's aliases.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/index.js';

let server: ZooKeeperServer;
beforeAll(async () => {
  server = await startZooKeeper();
});
afterAll(() => server?.[Symbol.asyncDispose]());

/** Starts `entry` (TypeScript) in a worker with tsx's loader and this package's tsconfig. */
function tsWorker(entry: URL, workerData: unknown): Worker {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(
    require.resolve('tsx/package.json').replace('package.json', 'dist/esm/api/index.mjs'),
  );
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  const bootstrap = `(async () => {
    const { register } = await import(${JSON.stringify(tsxApi.href)});
    register({ tsconfig: ${JSON.stringify(tsconfig)} });
    await import(${JSON.stringify(entry.href)});
  })()`;
  return new Worker(bootstrap, { eval: true, workerData });
}

it('a client in a worker thread connects, writes, reads, takes a watch event and closes', async () => {
  const worker = tsWorker(new URL('./fixtures/worker-client.mts', import.meta.url), {
    connectString: server.connectString,
    path: '/from-worker',
  });
  const result = await new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code} before answering`)));
  });
  // The worker ends by itself once its client is closed: nothing (socket, timer) keeps it alive.
  const exitCode = await new Promise<number>((resolve) => worker.once('exit', resolve));
  expect(exitCode).toBe(0);
  expect(result).toMatchObject({
    created: '/from-worker',
    data: 'from a worker',
    event: { type: 'created', path: '/from-worker/child' },
  });
  // The main thread sees the worker's write; its ephemeral child went with its closed session.
  const zk = await connect({ connectString: server.connectString });
  try {
    expect((await zk.getData('/from-worker')).data.toString()).toBe('from a worker');
    expect(await zk.exists('/from-worker/child')).toBeNull();
  } finally {
    await zk.close();
  }
});
