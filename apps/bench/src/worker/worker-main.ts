/**
 * A worker: one child process per measured cell, so that the CPU time it reports belongs to one contender
 * only. It reads a CellSpec (JSON) from its first argument, runs it, and prints one line
 * `@@result <CellResult JSON>` on stdout; libraries may print what they like around it.
 */
import { type CellResult, type CellSpec, type ContenderId, RESULT_MARKER } from '../types.js';
import type { DriverFactory } from './driver.js';
import { runRawLatency, runRawSession, runRawThroughput, runRawWatch } from './raw-runners.js';
import { runLatency } from './run-latency.js';
import { runSession } from './run-session.js';
import { issuerFor, runThroughput } from './run-throughput.js';
import { runWatch } from './run-watch.js';

async function factoryFor(contender: ContenderId): Promise<DriverFactory> {
  switch (contender) {
    case 'ours':
      return (await import('./driver-ours.js')).connectOurs;
    case 'node-zookeeper-client':
      return (await import('./driver-nzc.js')).connectNzc;
    case 'zookeeper-native':
      return (await import('./driver-native.js')).connectNative;
    default:
      throw new Error(`${contender} is not a Node client`);
  }
}

async function runRaw(spec: CellSpec): Promise<CellResult> {
  switch (spec.kind) {
    case 'throughput':
      return runRawThroughput(spec);
    case 'latency':
      return runRawLatency(spec);
    case 'session':
      return runRawSession(spec);
    case 'watch':
      return runRawWatch(spec);
    default:
      return { ok: false, unsupported: true, error: `raw has no ${spec.kind} cell` };
  }
}

/** Runs one cell in this process. */
export async function runCell(spec: CellSpec): Promise<CellResult> {
  if (spec.kind === 'recipe') {
    if (spec.contender !== 'ours')
      return { ok: false, unsupported: true, error: `${spec.contender} has no recipes` };
    return (await import('./run-recipes.js')).runRecipe(spec);
  }
  if (spec.contender === 'raw') return runRaw(spec);
  if (spec.contender === 'raw-paced') {
    if (spec.kind !== 'throughput') return { ok: false, unsupported: true, error: 'throughput only' };
    return runRawThroughput(spec, { pacedReads: true });
  }
  const factory = await factoryFor(spec.contender);
  switch (spec.kind) {
    case 'session':
      return runSession(factory, spec);
    case 'watch':
      return runWatch(factory, spec);
    case 'memory':
      return (await import('./run-memory.js')).runMemory(factory, spec);
    case 'throughput':
    case 'latency': {
      const driver = await factory(spec.connectString);
      try {
        if (spec.kind === 'latency') return await runLatency(driver, spec);
        const issue = spec.op ? issuerFor(driver, spec.op, spec) : undefined;
        if (!issue) return { ok: false, unsupported: true, error: `${spec.contender} has no ${spec.op}` };
        return await runThroughput(issue, spec);
      } finally {
        await driver.close().catch(() => {});
      }
    }
    default:
      return { ok: false, unsupported: true, error: `no ${spec.kind} cell for ${spec.contender}` };
  }
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as CellSpec;
  let result: CellResult;
  try {
    result = await runCell(spec);
  } catch (error) {
    result = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`, () => process.exit(0));
}

void main();
