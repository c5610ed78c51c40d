/**
 * Our client, `@zkwire/zk-wire-client`, driven through its public API (docs/contracts.md). The module is
 * imported lazily so that a client that does not load yet makes this contender fail, not the whole bench.
 */
import type { ClientDriver, DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';

/** The part of the contract this bench uses; declared here so the bench compiles while the client grows. */
interface OursClient {
  getData(path: string, options?: { watch?: (event: unknown) => void }): Promise<unknown>;
  exists(path: string): Promise<unknown>;
  setData(path: string, data: Uint8Array): Promise<unknown>;
  create(path: string, data: Uint8Array): Promise<string>;
  delete(path: string): Promise<void>;
  getChildren(path: string): Promise<string[]>;
  multi(ops: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}
interface OursModule {
  connect(options: { connectString: string; sessionTimeoutMs?: number }): Promise<OursClient>;
  op: { setData(path: string, data: Uint8Array, version?: number): unknown };
}

/** Opens one session with our client. */
export const connectOurs: DriverFactory = async (connectString) => {
  const mod = (await import('@zkwire/zk-wire-client')) as unknown as OursModule;
  if (typeof mod.connect !== 'function')
    throw new Error('@zkwire/zk-wire-client does not export connect() yet');
  const client = await withTimeout(
    mod.connect({ connectString, sessionTimeoutMs: 30_000 }),
    10_000,
    'connect',
  );
  const driver: ClientDriver = {
    getData: (path, ok, fail) => void client.getData(path).then(ok, fail),
    exists: (path, ok, fail) => void client.exists(path).then(ok, fail),
    setData: (path, data, ok, fail) => void client.setData(path, data).then(ok, fail),
    create: (path, data, ok, fail) => void client.create(path, data).then(ok, fail),
    delete: (path, ok, fail) => void client.delete(path).then(ok, fail),
    getChildren: (path, ok, fail) => void client.getChildren(path).then(ok, fail),
    multiSetData: (paths, data, ok, fail) =>
      void client.multi(paths.map((path) => mod.op.setData(path, data))).then(ok, fail),
    watchData: (path, onEvent, ok, fail) => void client.getData(path, { watch: onEvent }).then(ok, fail),
    close: () => client.close(),
  };
  return driver;
};
