/**
 * The official Java client as a contender: BenchDriver.java compiled at bench time against Debian's
 * ZooKeeper jars with @zkwire/testing's compileJava (cached by content), run once per cell.
 */
import { readFileSync } from 'node:fs';
import type { CellSpec } from './types.js';
import { HANDOFF_CONTENDERS } from './worker/run-recipes.js';

/** How to start the Java driver for one cell, or why it cannot run. */
export type JavaStatus =
  | { ok: true; java: string; classpath: string[]; detail: string }
  | { ok: false; reason: string };

/** Java files compiled with a driver: BenchDriver's memory and latency cells and its turns have files of their own. */
const companions: Record<string, string[]> = {
  'BenchDriver.java': ['BenchMemory.java', 'BenchLatency.java', 'BenchTurns.java'],
};

/**
 * Compiles one Java driver against the given jars (slf4j-nop instead of slf4j-simple: the libraries' INFO
 * lines would only slow the driver down); never throws, says why instead.
 */
async function prepareDriver(
  file: string,
  jars: (testing: typeof import('@zkwire/testing')) => { classpath: string[]; detail: string },
): Promise<JavaStatus> {
  try {
    const testing = await import('@zkwire/testing');
    const { classpath: found, detail } = jars(testing);
    const java = testing.findJava();
    const sources = Object.fromEntries(
      [file, ...(companions[file] ?? [])].map((f) => [
        f,
        readFileSync(new URL(`./java/${f}`, import.meta.url), 'utf8'),
      ]),
    );
    const classpath = found.map((jar) => jar.replace(/slf4j-simple\.jar$/, 'slf4j-nop.jar'));
    const compiled = await testing.compileJava({ sources, classpath });
    return { ok: true, java, classpath: compiled.classpath, detail };
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    };
  }
}

/** Compiles the Java client driver against Debian's ZooKeeper jars; never throws. */
export function prepareJava(): Promise<JavaStatus> {
  return prepareDriver('BenchDriver.java', (testing) => {
    const zookeeper = testing.findZooKeeper();
    return { classpath: zookeeper.classpath, detail: `ZooKeeper ${zookeeper.version} Java client` };
  });
}

/** Compiles the Curator driver against Debian's Curator jars; never throws. */
export function prepareCurator(): Promise<JavaStatus> {
  return prepareDriver('CuratorBench.java', (testing) => ({
    classpath: testing.findCurator().classpath,
    detail: 'Apache Curator 5.4 recipes (Debian)',
  }));
}

/** The java command line of the Curator driver for one recipe cell. */
export function curatorCommand(status: Extract<JavaStatus, { ok: true }>, spec: CellSpec): string[] {
  const args: Record<string, string | number> = {
    scenario: spec.scenario,
    base: `${spec.paths.root}/recipes/${spec.cellId}`,
    contenders: HANDOFF_CONTENDERS,
    connect: spec.connectString,
    warmupMs: spec.warmupMs,
    durationMs: spec.durationMs,
    dataSize: spec.dataSize,
    tree: spec.paths.cacheTree ?? '',
  };
  return [
    status.java,
    '-Xmx128m',
    '-XX:+UseSerialGC',
    '-cp',
    status.classpath.join(':'),
    'CuratorBench',
    ...Object.entries(args).map(([k, v]) => `${k}=${v}`),
  ];
}

/** The java command line for one cell. */
export function javaCommand(status: Extract<JavaStatus, { ok: true }>, spec: CellSpec): string[] {
  const args: Record<string, string | number> = {
    kind: spec.kind,
    op: spec.op ?? '',
    inFlight: spec.inFlight,
    rate: spec.rate ?? 2_000,
    warmupMs: spec.warmupMs,
    durationMs: spec.durationMs,
    connect: spec.connectString,
    data: spec.paths.data,
    children: spec.paths.children,
    scratch: spec.paths.scratch,
    multi: spec.paths.multi.join(','),
    watch: spec.paths.watch,
    dataSize: spec.dataSize,
    cellId: spec.cellId,
    memoryCell: spec.memoryCell ?? '',
    tree: spec.paths.memoryTree ?? '',
    ...(spec.turns
      ? {
          turnsIndex: spec.turns.index,
          turnsOf: spec.turns.of,
          turnMs: spec.turns.turnMs,
          gapMs: spec.turns.gapMs,
          turnCycles: spec.turns.cycles,
          turnWarmupMs: spec.turns.warmUpMs,
        }
      : {}),
  };
  return [
    status.java,
    '-Xmx128m',
    '-XX:+UseSerialGC',
    '-cp',
    status.classpath.join(':'),
    'BenchDriver',
    ...Object.entries(args).map(([k, v]) => `${k}=${v}`),
  ];
}
