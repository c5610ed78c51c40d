/**
 * Runs one script through both clients against one server, each side under its own fresh base path, and
 * compares the normalized streams.
 */
import type { ZooKeeperClient } from '../../src/index.js';
import { compareStreams, type Difference, formatDifferences } from './compare.js';
import type { JavaConformanceDriver } from './java-runner.js';
import { type NormalStream, normalizeRun } from './normalize.js';
import type { Script } from './script.js';
import type { ScriptRun } from './stream.js';
import { runOurs } from './ts-runner.js';

/** Both sides' runs of a script, normalized and compared. */
export interface Comparison {
  script: Script;
  java: ScriptRun;
  ours: ScriptRun;
  javaStreams: NormalStream[];
  ourStreams: NormalStream[];
  differences: Difference[];
  release: string;
  /** The report to print when `differences` is not empty (it names the seed of a random script). */
  report: string;
}

let counter = 0;

async function makeBase(admin: ZooKeeperClient, base: string, script: Script): Promise<void> {
  await admin.create(base);
  for (const chroot of new Set(script.sessions)) {
    if (chroot !== null) await admin.create(`${base}${chroot}`, null, { createParents: true });
  }
}

/**
 * Compares two runs of `script` (already made) against `release`; `without` leaves accepted differences out.
 */
export function compareRuns(
  script: Script,
  release: string,
  java: ScriptRun,
  ours: ScriptRun,
  without: readonly string[] = [],
): Comparison {
  const javaStreams = normalizeRun(script, java, { release, without });
  const ourStreams = normalizeRun(script, ours, { release, without });
  const differences = compareStreams(javaStreams, ourStreams);
  const title = `${script.name}${script.seed === undefined ? '' : ` [seed ${script.seed}]`}`;
  return {
    script,
    release,
    java,
    ours,
    javaStreams,
    ourStreams,
    differences,
    report: formatDifferences(title, differences, javaStreams, ourStreams),
  };
}

/**
 * Runs `script` on both sides: Java in the driver's queue, ours after `after` (so that ours run one at a
 * time too, alongside the Java ones). Throws if either side could not finish.
 */
export async function runBoth(
  script: Script,
  release: string,
  hostPort: string,
  admin: ZooKeeperClient,
  java: JavaConformanceDriver,
  after: Promise<unknown>,
): Promise<Comparison> {
  const id = counter++;
  const javaBase = `/conformance-${process.pid}-${id}-java`;
  const ourBase = `/conformance-${process.pid}-${id}-ours`;
  await makeBase(admin, javaBase, script);
  await makeBase(admin, ourBase, script);
  const javaRun = java.run(script, hostPort, javaBase);
  const ourRun = after.catch(() => {}).then(() => runOurs(script, hostPort, ourBase));
  const [javaResult, ourResult] = await Promise.all([javaRun, ourRun]);
  if (javaResult.failure) throw new Error(`${script.name}: the Java run failed: ${javaResult.failure}`);
  if (ourResult.failure) throw new Error(`${script.name}: our run failed: ${ourResult.failure}`);
  return compareRuns(script, release, javaResult, ourResult);
}
