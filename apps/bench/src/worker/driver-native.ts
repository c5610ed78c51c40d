/**
 * The native `zookeeper` package (npm), a Node binding over the C client, through its callback API
 * (`a_*` / `aw_*`). It is installed at bench time into apps/bench/.peers/native (see native-peer.ts) and
 * loaded from there. It has no multi, so multi cells are not run for it.
 */
import { createRequire } from 'node:module';
import { nativePeerDir } from '../native-peer-dir.js';
import type { ClientDriver, DriverFactory } from './driver.js';
import { withTimeout } from './driver.js';

type RcCallback = (rc: number, error: string, ...rest: unknown[]) => void;
interface NativeZooKeeper {
  init(config: Record<string, unknown>): void;
  on(event: string, listener: (...args: unknown[]) => void): void;
  close(): void;
  a_get(path: string, watch: boolean, cb: RcCallback): void;
  aw_get(path: string, watchCb: (type: number, state: number, path: string) => void, cb: RcCallback): void;
  a_exists(path: string, watch: boolean, cb: RcCallback): void;
  a_set(path: string, data: Buffer, version: number, cb: RcCallback): void;
  a_create(path: string, data: Buffer, flags: number, cb: RcCallback): void;
  a_delete_(path: string, version: number, cb: RcCallback): void;
  a_get_children(path: string, watch: boolean, cb: RcCallback): void;
}
interface NativeModule {
  new (config: Record<string, unknown>): NativeZooKeeper;
  constants: { ZOO_LOG_LEVEL_ERROR: number };
}

function rcError(rc: number, error: string): Error {
  return new Error(`zookeeper (native) rc=${rc} ${error}`);
}

/** Opens one session with the native package. */
export const connectNative: DriverFactory = async (connectString) => {
  const require = createRequire(`${nativePeerDir}/package.json`);
  const ZooKeeper = require('zookeeper') as NativeModule;
  const zk = new ZooKeeper({
    connect: connectString,
    timeout: 30_000,
    debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_ERROR,
    host_order_deterministic: false,
  });
  await withTimeout(
    new Promise<void>((resolve) => {
      zk.on('connect', () => resolve());
      zk.init({});
    }),
    10_000,
    'zookeeper (native) connect',
  );
  const driver: ClientDriver = {
    getData: (path, ok, fail) => zk.a_get(path, false, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    exists: (path, ok, fail) => zk.a_exists(path, false, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    setData: (path, data, ok, fail) =>
      zk.a_set(path, data, -1, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    create: (path, data, ok, fail) =>
      zk.a_create(path, data, 0, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    delete: (path, ok, fail) => zk.a_delete_(path, -1, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    getChildren: (path, ok, fail) =>
      zk.a_get_children(path, false, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    watchData: (path, onEvent, ok, fail) =>
      zk.aw_get(path, onEvent, (rc, e) => (rc === 0 ? ok() : fail(rcError(rc, e)))),
    close: async () => {
      zk.close();
    },
  };
  return driver;
};
