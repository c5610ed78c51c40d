/** `node-zookeeper-client` (npm), the pure-JavaScript peer, through its callback API. */
import { createRequire } from 'node:module';
import { withTimeout } from '../measure/window.js';
import type { Contender } from './contender.js';
import type { DriverFactory } from './driver.js';
import { nodeWorkerCommand } from './driver-protocol.js';

type Callback = (error: unknown, ...rest: unknown[]) => void;
interface NzcTransaction {
  setData(path: string, data: Buffer, version: number): NzcTransaction;
  commit(cb: Callback): void;
}
interface NzcClient {
  connect(): void;
  close(): void;
  once(event: string, listener: () => void): void;
  getData(path: string, watcherOrCb: unknown, cb?: Callback): void;
  exists(path: string, cb: Callback): void;
  setData(path: string, data: Buffer, version: number, cb: Callback): void;
  create(path: string, data: Buffer, mode: number, cb: Callback): void;
  remove(path: string, version: number, cb: Callback): void;
  getChildren(path: string, cb: Callback): void;
  transaction(): NzcTransaction;
}

const require = createRequire(import.meta.url);
const load = () =>
  require('node-zookeeper-client') as { createClient(cs: string, o: Record<string, unknown>): NzcClient };

const connect: DriverFactory = async (connectString) => {
  const client = load().createClient(connectString, { sessionTimeout: 30_000, spinDelay: 100, retries: 0 });
  const connected = new Promise<void>((resolve) => client.once('connected', resolve));
  client.connect();
  await withTimeout(connected, 10_000, 'node-zookeeper-client connect');
  const cb = (ok: () => void, fail: (e: unknown) => void) => (e: unknown) => (e ? fail(e) : ok());
  return {
    getData: (path, ok, fail) => client.getData(path, cb(ok, fail)),
    exists: (path, ok, fail) => client.exists(path, cb(ok, fail)),
    setData: (path, data, ok, fail) => client.setData(path, data, -1, cb(ok, fail)),
    create: (path, data, ok, fail) => client.create(path, data, 0, cb(ok, fail)),
    delete: (path, ok, fail) => client.remove(path, -1, cb(ok, fail)),
    getChildren: (path, ok, fail) => client.getChildren(path, cb(ok, fail)),
    multiSetData: (paths, data, ok, fail) => {
      const tx = client.transaction();
      for (const path of paths) tx.setData(path, data, -1);
      tx.commit(cb(ok, fail));
    },
    watchData: (path, onEvent, ok, fail) => client.getData(path, onEvent, cb(ok, fail)),
    close: () =>
      new Promise<void>((resolve) => {
        client.once('disconnected', resolve);
        client.close();
        setTimeout(resolve, 2_000).unref();
      }),
  };
};

export const nzc: Contender = {
  id: 'node-zookeeper-client',
  label: 'node-zookeeper-client',
  short: 'nzc',
  color: '#e08a2c',
  // its watches and sessions are measured at scale; it has no CuratorCache
  supports: (kind, _op, scenario) => kind !== 'recipe' && (kind !== 'scale' || scenario !== 'cacheScale'),
  connect,
  async prepare() {
    try {
      const { version } = require('node-zookeeper-client/package.json') as { version: string };
      return { ok: true, detail: `node-zookeeper-client@${version}`, command: nodeWorkerCommand };
    } catch (error) {
      return { ok: false, reason: `node-zookeeper-client is not installed: ${String(error)}` };
    }
  },
};
