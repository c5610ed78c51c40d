/**
 * Getting every contender ready before the first cell: checking that our client loads, installing the native
 * package, compiling the Java and Curator drivers. A contender that cannot run is reported with the reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  curatorCommand,
  type JavaStatus,
  javaCommand,
  prepareCurator,
  prepareJava,
} from './java-contender.js';
import { ensureNativePeer } from './native-peer.js';
import { buildOurs, importOurs, OURS_MODULE_ENV } from './ours-build.js';
import type { Progress } from './progress.js';
import type { ContenderStatus } from './report/model.js';
import { nodeWorkerCommand } from './run-worker.js';
import type { CellSpec, ContenderId, OursFrom } from './types.js';

function packageVersion(specifier: string): string {
  try {
    const url = import.meta.resolve(`${specifier}/package.json`);
    return (JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/**
 * Builds our client for the workers (ours-build.ts) unless `source`, and checks that what they will load
 * exports connect(). The workers find the build through OURS_MODULE_ENV, set here for the processes spawned
 * after it.
 */
async function prepareOurs(from: OursFrom): Promise<ContenderStatus> {
  let module: string | undefined;
  let how = 'from its sources, through tsx';
  if (from === 'built') {
    try {
      const built = await buildOurs();
      module = built.module;
      how = built.detail;
    } catch (error) {
      return { available: false, reason: `@zkwire/zk-wire-client did not build: ${String(error)}` };
    }
  }
  if (module === undefined) delete process.env[OURS_MODULE_ENV];
  else process.env[OURS_MODULE_ENV] = module;
  const mod = (await importOurs(module).catch((e: unknown) => ({ error: e }))) as Record<string, unknown>;
  if (typeof mod.connect === 'function')
    return { available: true, detail: `@zkwire/zk-wire-client (this repository, ${how})` };
  const why = mod.error === undefined ? '' : `: ${String(mod.error)}`;
  return { available: false, reason: `@zkwire/zk-wire-client does not export connect() yet${why}` };
}

/** Prepares the wanted contenders, one after another; never throws. */
export async function prepareContenders(
  wanted: readonly ContenderId[],
  progress: Progress,
  oursFrom: OursFrom = 'built',
): Promise<{ statuses: Partial<Record<ContenderId, ContenderStatus>>; java: Jvms }> {
  const statuses: Partial<Record<ContenderId, ContenderStatus>> = {};
  const java: Jvms = {};
  for (const id of wanted) {
    switch (id) {
      case 'raw':
        statuses.raw = {
          available: true,
          detail: 'pre-encoded frames on a net.Socket, replies counted, not decoded',
        };
        break;
      case 'raw-paced':
        statuses[id] = {
          available: true,
          detail:
            'the raw limit, reading at most once per ms with 256 or more in flight (as ours paces reads)',
        };
        break;
      case 'node-zookeeper-client':
        statuses[id] = {
          available: true,
          detail: `node-zookeeper-client@${packageVersion('node-zookeeper-client')}`,
        };
        break;
      case 'ours':
        statuses.ours = await prepareOurs(oursFrom);
        break;
      case 'zookeeper-native': {
        const native = await ensureNativePeer((line) => progress.log(line));
        statuses[id] = native.ok
          ? { available: true, detail: `${native.detail}, callback API (a_get, ...), no multi` }
          : { available: false, reason: native.reason };
        break;
      }
      case 'java': {
        progress.log('compiling the Java driver ...');
        const status = await prepareJava();
        java.java = status;
        statuses.java = status.ok
          ? { available: true, detail: `${status.detail}, async API, one JVM per cell (-Xmx128m, SerialGC)` }
          : { available: false, reason: status.reason };
        break;
      }
      case 'curator': {
        progress.log('compiling the Curator driver ...');
        const status = await prepareCurator();
        java.curator = status;
        statuses.curator = status.ok
          ? { available: true, detail: `${status.detail}, one JVM per cell (-Xmx128m, SerialGC)` }
          : { available: false, reason: status.reason };
        break;
      }
    }
  }
  return { statuses, java };
}

/** The compiled Java drivers, where they compiled. */
export interface Jvms {
  java?: JavaStatus;
  curator?: JavaStatus;
}

/** The command line that runs one cell: a JVM for the Java contenders, a Node worker for the rest. */
export function commandFor(spec: CellSpec, java: Jvms): string[] {
  if (spec.contender === 'java' && java.java?.ok) return javaCommand(java.java, spec);
  if (spec.contender === 'curator' && java.curator?.ok) return curatorCommand(java.curator, spec);
  return nodeWorkerCommand(spec);
}
