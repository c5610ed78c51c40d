/**
 * The official Java client (BenchDriver.java), compiled at bench time with @zkwire/testing's compileJava
 * (cached by content) against the jars it finds for the run's ZooKeeper version, one JVM per cell.
 */
import { readFileSync } from 'node:fs';
import { message } from '../measure/window.js';
import { type Contender, clientKinds, type Prepared } from './contender.js';
import { driverArgs } from './driver-protocol.js';

const JVM = ['-Xmx128m', '-XX:+UseSerialGC'];
/** Scale cells hold a million cached nodes or ten thousand sessions. */
const SCALE_JVM = ['-Xmx2g', '-XX:+UseSerialGC'];

/** Compiles `files` against the jars `find` names and returns how to run `mainClass`; never throws. */
export async function compileDriver(
  files: string[],
  mainClass: string,
  find: (testing: typeof import('@zkwire/testing')) => { classpath: string[]; version?: string },
  describe: (version: string) => string,
): Promise<Prepared> {
  try {
    const testing = await import('@zkwire/testing');
    const jars = find(testing);
    const sources = Object.fromEntries(
      files.map((f) => [f, readFileSync(new URL(`../java/${f}`, import.meta.url), 'utf8')]),
    );
    // slf4j-nop, not slf4j-simple: the libraries' INFO lines would only slow the drivers down
    const classpath = jars.classpath.map((jar) =>
      jar.replace(/slf4j-simple([^/]*)\.jar$/, 'slf4j-nop$1.jar'),
    );
    const cp = (await testing.compileJava({ sources, classpath })).classpath.join(':');
    const java = testing.findJava();
    return {
      ok: true,
      detail: `${describe(jars.version ?? '?')}, one JVM per cell (${JVM.join(' ')}; scale cells ${SCALE_JVM.join(' ')})`,
      command: (spec) => [
        java,
        ...(spec.kind === 'scale' ? SCALE_JVM : JVM),
        '-cp',
        cp,
        mainClass,
        ...driverArgs(spec),
      ],
    };
  } catch (error) {
    return { ok: false, reason: message(error).split('\n')[0] ?? '' };
  }
}

export const java: Contender = {
  id: 'java',
  label: 'Java client (official)',
  short: 'java',
  color: '#b5483b',
  supports: (kind, _op, scenario) => clientKinds(kind) || (kind === 'scale' && scenario !== 'cacheScale'),
  prepare: (log) => {
    log('compiling the Java driver ...');
    return compileDriver(
      ['BenchDriver.java', 'BenchLatency.java', 'BenchTurns.java', 'JavaScale.java', 'ScaleMemory.java'],
      'BenchDriver',
      (testing) => testing.findZooKeeper(),
      (version) => `ZooKeeper ${version} Java client, async API`,
    );
  },
};
