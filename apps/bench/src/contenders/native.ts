/**
 * The native `zookeeper` package (npm), a binding over the C client, through its callback API. Its install
 * script builds the C client (cmake, gcc), so it is installed at bench time into a throwaway npm project of
 * its own, apps/bench/.peers/native (npm runs a dependency's install script only when the project approves
 * it: `allowScripts`), once; later runs reuse the build. It has no multi.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTimeout } from '../measure/window.js';
import type { Contender, Prepared } from './contender.js';
import type { DriverFactory } from './driver.js';
import { nodeWorkerCommand } from './driver-protocol.js';

const peerDir = fileURLToPath(new URL('../../.peers/native', import.meta.url));
const installed = join(peerDir, 'node_modules/zookeeper/package.json');

type RcCallback = (rc: number, error: string) => void;
interface NativeZooKeeper {
  init(config: Record<string, unknown>): void;
  on(event: string, listener: () => void): void;
  close(): void;
  a_get(path: string, watch: boolean, cb: RcCallback): void;
  aw_get(path: string, watchCb: () => void, cb: RcCallback): void;
  a_exists(path: string, watch: boolean, cb: RcCallback): void;
  a_set(path: string, data: Buffer, version: number, cb: RcCallback): void;
  a_create(path: string, data: Buffer, flags: number, cb: RcCallback): void;
  a_delete_(path: string, version: number, cb: RcCallback): void;
  a_get_children(path: string, watch: boolean, cb: RcCallback): void;
}
type NativeModule = (new (
  config: Record<string, unknown>,
) => NativeZooKeeper) & {
  constants: { ZOO_LOG_LEVEL_ERROR: number };
};

const connect: DriverFactory = async (connectString) => {
  const ZooKeeper = createRequire(installed)('zookeeper') as NativeModule;
  const zk = new ZooKeeper({
    connect: connectString,
    timeout: 30_000,
    debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_ERROR,
    host_order_deterministic: false,
  });
  const connected = new Promise<void>((resolve) => zk.on('connect', resolve));
  zk.init({});
  await withTimeout(connected, 10_000, 'zookeeper (native) connect');
  const cb = (ok: () => void, fail: (e: unknown) => void) => (rc: number, e: string) =>
    rc === 0 ? ok() : fail(new Error(`zookeeper (native) rc=${rc} ${e}`));
  return {
    getData: (path, ok, fail) => zk.a_get(path, false, cb(ok, fail)),
    exists: (path, ok, fail) => zk.a_exists(path, false, cb(ok, fail)),
    setData: (path, data, ok, fail) => zk.a_set(path, data, -1, cb(ok, fail)),
    create: (path, data, ok, fail) => zk.a_create(path, data, 0, cb(ok, fail)),
    delete: (path, ok, fail) => zk.a_delete_(path, -1, cb(ok, fail)),
    getChildren: (path, ok, fail) => zk.a_get_children(path, false, cb(ok, fail)),
    watchData: (path, onEvent, ok, fail) => zk.aw_get(path, onEvent, cb(ok, fail)),
    close: async () => zk.close(),
  };
};

const lastLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/Unknown (user|env) config/.test(l))
    .slice(-3)
    .join(' / ');

/** Whether the installed package loads in this Node. */
function loads(): Prepared {
  const probe = spawnSync(process.execPath, ['-e', "require('zookeeper')"], {
    ...{ cwd: peerDir, encoding: 'utf8', timeout: 20_000 },
  });
  if (probe.status !== 0)
    return { ok: false, reason: lastLines(`${probe.stderr ?? ''}${probe.error ?? ''}`) };
  const { version } = JSON.parse(readFileSync(installed, 'utf8')) as { version: string };
  return {
    ok: true,
    detail: `zookeeper@${version} (C client), callback API, no multi`,
    command: nodeWorkerCommand,
  };
}

async function install(log: (line: string) => void): Promise<Prepared> {
  if (existsSync(installed)) {
    const status = loads();
    if (status.ok) return status;
    // built for another Node, or half-built: npm would call it up to date, so start afresh
    rmSync(join(peerDir, 'node_modules'), { recursive: true, force: true });
    rmSync(join(peerDir, 'package-lock.json'), { force: true });
  }
  mkdirSync(peerDir, { recursive: true });
  const manifest = { name: 'zkwire-bench-native-peer', private: true, allowScripts: { zookeeper: true } };
  writeFileSync(join(peerDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log('installing the native `zookeeper` package (builds the C client; once) ...');
  const logFile = join(peerDir, 'install.log');
  const npm = spawnSync('npm', ['install', 'zookeeper', '--foreground-scripts', '--no-fund', '--no-audit'], {
    ...{ cwd: peerDir, encoding: 'utf8', timeout: 600_000, killSignal: 'SIGKILL', maxBuffer: 1 << 30 },
  });
  const output = `${npm.stdout ?? ''}${npm.stderr ?? ''}`;
  writeFileSync(logFile, output);
  if (npm.status === 0) return loads();
  const reason = `npm install zookeeper failed (exit ${npm.status ?? -1}): ${lastLines(output)} (${logFile})`;
  return { ok: false, reason };
}

export const native: Contender = {
  id: 'zookeeper-native',
  label: 'zookeeper (native, C client)',
  short: 'native',
  color: '#4caf50',
  // no scale cells: the C client runs two threads per session, and its watches are its own
  supports: (kind, op) => kind !== 'recipe' && kind !== 'scale' && op !== 'multi',
  connect,
  prepare: install,
};
