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

/** Compiles the driver; never throws. */
export async function prepareJava(): Promise<JavaStatus> {
  try {
    const testing = await import('@zkwire/testing');
    const zookeeper = testing.findZooKeeper();
    const java = testing.findJava();
    const source = readFileSync(new URL('./java/BenchDriver.java', import.meta.url), 'utf8');
    // slf4j-nop instead of slf4j-simple: the client's INFO lines would only slow the driver down.
    const classpath = zookeeper.classpath.map((jar) => jar.replace(/slf4j-simple\.jar$/, 'slf4j-nop.jar'));
    const compiled = await testing.compileJava({ sources: { 'BenchDriver.java': source }, classpath });
    return {
      ok: true,
      java,
      classpath: compiled.classpath,
      detail: `ZooKeeper ${zookeeper.version} Java client`,
    };
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    };
  }
}

/** Compiles the Curator driver against Debian's Curator jars; never throws. */
export async function prepareCurator(): Promise<JavaStatus> {
  try {
    const testing = await import('@zkwire/testing');
    const curator = testing.findCurator();
    const java = testing.findJava();
    const source = readFileSync(new URL('./java/CuratorBench.java', import.meta.url), 'utf8');
    const classpath = curator.classpath.map((jar) => jar.replace(/slf4j-simple\.jar$/, 'slf4j-nop.jar'));
    const compiled = await testing.compileJava({ sources: { 'CuratorBench.java': source }, classpath });
    return { ok: true, java, classpath: compiled.classpath, detail: 'Apache Curator 5.4 recipes (Debian)' };
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error),
    };
  }
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
