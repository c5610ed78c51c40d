/**
 * Our client, `@zkwire/zk-wire-client`, driven through its public API (docs/contracts.md): as built for the
 * run (ours-build.ts) unless `--ours-from source`. The module is imported lazily so that a client that does
 * not load yet makes this contender fail, not the whole bench.
 */
import { importOurs, OURS_MODULE_ENV } from '../ours-build.js';
import type { ClientDriver, DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';

type OursModule = typeof import('@zkwire/zk-wire-client');

let loading: Promise<OursModule> | undefined;
/**
 * Loads the client once per worker process. The session-setup scenario opens hundreds of sessions, and a
 * dynamic import per session went through tsx's loader each time (about half of the CPU it measured).
 */
const loadOurs = (): Promise<OursModule> => (loading ??= importOurs(process.env[OURS_MODULE_ENV]));

/** Opens one session with our client. */
export const connectOurs: DriverFactory = async (connectString) => {
  const mod = await loadOurs();
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
    addRecursiveWatch: (path, onEvent) => client.addWatch(path, 'persistent-recursive', onEvent),
    close: () => client.close(),
  };
  return driver;
};
