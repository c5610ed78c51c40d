/** `node-zookeeper-client` (npm), the pure-JavaScript peer, through its callback API. */
import { createRequire } from 'node:module';
import type { ClientDriver, DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';

type Callback = (error: unknown, ...rest: unknown[]) => void;
interface NzcTransaction {
  setData(path: string, data: Buffer, version: number): NzcTransaction;
  commit(cb: Callback): void;
}
interface NzcClient {
  connect(): void;
  close(): void;
  once(event: string, listener: (...args: unknown[]) => void): void;
  getData(path: string, watcherOrCb: unknown, cb?: Callback): void;
  exists(path: string, cb: Callback): void;
  setData(path: string, data: Buffer, version: number, cb: Callback): void;
  create(path: string, data: Buffer, mode: number, cb: Callback): void;
  remove(path: string, version: number, cb: Callback): void;
  getChildren(path: string, cb: Callback): void;
  transaction(): NzcTransaction;
}
interface NzcModule {
  createClient(connectString: string, options: Record<string, unknown>): NzcClient;
  CreateMode: { PERSISTENT: number };
}

const require = createRequire(import.meta.url);

/** Opens one session with node-zookeeper-client. */
export const connectNzc: DriverFactory = async (connectString) => {
  const nzc = require('node-zookeeper-client') as NzcModule;
  const client = nzc.createClient(connectString, { sessionTimeout: 30_000, spinDelay: 100, retries: 0 });
  await withTimeout(
    new Promise<void>((resolve) => {
      client.once('connected', () => resolve());
      client.connect();
    }),
    10_000,
    'node-zookeeper-client connect',
  );
  const persistent = nzc.CreateMode.PERSISTENT;
  const driver: ClientDriver = {
    getData: (path, ok, fail) => client.getData(path, (e: unknown) => (e ? fail(e) : ok())),
    exists: (path, ok, fail) => client.exists(path, (e) => (e ? fail(e) : ok())),
    setData: (path, data, ok, fail) => client.setData(path, data, -1, (e) => (e ? fail(e) : ok())),
    create: (path, data, ok, fail) => client.create(path, data, persistent, (e) => (e ? fail(e) : ok())),
    delete: (path, ok, fail) => client.remove(path, -1, (e) => (e ? fail(e) : ok())),
    getChildren: (path, ok, fail) => client.getChildren(path, (e) => (e ? fail(e) : ok())),
    multiSetData: (paths, data, ok, fail) => {
      const tx = client.transaction();
      for (const path of paths) tx.setData(path, data, -1);
      tx.commit((e) => (e ? fail(e) : ok()));
    },
    watchData: (path, onEvent, ok, fail) =>
      client.getData(path, onEvent, (e: unknown) => (e ? fail(e) : ok())),
    close: async () => {
      await new Promise<void>((resolve) => {
        client.once('disconnected', () => resolve());
        client.close();
        setTimeout(resolve, 2_000).unref();
      });
    },
  };
  return driver;
};
