/**
 * A worker: one child process per cell, so that the CPU time it reports is one contender's alone. It reads a
 * CellSpec (JSON) from its first argument, runs it, and prints `@@result <CellResult JSON>` on stdout;
 * libraries may print what they like around it.
 */
import { contenders } from './contenders/index.js';
import { message } from './measure/window.js';
import { runLatency } from './scenarios/latency.js';
import { runSession } from './scenarios/session.js';
import { runThroughput } from './scenarios/throughput.js';
import { runWatch } from './scenarios/watch.js';
import { type CellResult, type CellSpec, RESULT_MARKER } from './types.js';

async function runCell(spec: CellSpec): Promise<CellResult> {
  const contender = contenders[spec.contender];
  if (contender.runCell) return contender.runCell(spec);
  if (spec.kind === 'recipe' && spec.contender === 'ours') {
    if (spec.scenario.startsWith('cache')) return (await import('./scenarios/cache.js')).runCache(spec);
    if (spec.scenario.startsWith('modeled')) return (await import('./scenarios/modeled.js')).runModeled(spec);
    return (await import('./scenarios/recipes.js')).runRecipe(spec);
  }
  if (spec.kind === 'scale' && spec.scenario === 'cacheScale' && spec.contender === 'ours')
    return (await import('./scenarios/cache-scale.js')).runCacheScale(spec);
  const connect = contender.connect;
  if (!connect) return { ok: false, unsupported: true, error: `${spec.contender} runs no Node worker` };
  switch (spec.kind) {
    case 'session':
      return runSession(connect, spec);
    case 'watch':
      return runWatch(connect, spec);
    case 'memory':
      return (await import('./scenarios/memory.js')).runMemory(connect, spec);
    case 'scale':
      if (spec.scenario === 'sessions')
        return (await import('./scenarios/sessions-scale.js')).runSessionsScale(connect, spec);
      return (await import('./scenarios/watch-restore.js')).runWatchRestore(connect, spec);
    default: {
      const driver = await connect(spec.connectString);
      try {
        return spec.kind === 'latency' ? await runLatency(driver, spec) : await runThroughput(driver, spec);
      } finally {
        await driver.close().catch(() => {});
      }
    }
  }
}

const spec = JSON.parse(process.argv[2] ?? '{}') as CellSpec;
const result = await runCell(spec).catch(
  (error: unknown): CellResult => ({ ok: false, error: message(error) }),
);
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`, () => process.exit(0));
