/**
 * Differential conformance: the same scripts through our client and through the async API of the Java client
 * of the server's release, against one real ZooKeeper server of the run's release (`ZKWIRE_ZK_VERSION`,
 * default 3.9.5; `npm run test:matrix` runs every release of the matrix), compared per session as ordered
 * streams of results and watch events (README.md of this folder). One JVM runs every Java script.
 */
import { findZooKeeper, startZooKeeper, versionAtLeast, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionState,
  connect,
  readOp,
  UnsupportedByServerError,
  type ZooKeeperClient,
} from '../../src/index.js';
import { ACCEPTED_DIFFERENCES } from './accepted-differences.js';
import { appliesTo } from './difference-helpers.js';
import { type JavaConformanceDriver, startJavaDriver } from './java-runner.js';
import { randomScript } from './random-script.js';
import { type Comparison, compareRuns, runBoth } from './run-both.js';
import { type Script, scriptsFor } from './script.js';
import { coverageScripts as allCoverageScripts } from './scripts-coverage.js';
import { orderingScripts as allOrderingScripts } from './scripts-ordering.js';
import type { Entry } from './stream.js';

/** The run's release: its server, and the Java client the driver is compiled against. */
const RELEASE = findZooKeeper().version;
const coverageScripts = scriptsFor(allCoverageScripts, RELEASE);
const orderingScripts = scriptsFor(allOrderingScripts, RELEASE);

const RANDOM_LENGTH = 40;
const extraSeeds = (process.env.ZKWIRE_CONFORMANCE_SEEDS ?? '').split(',').filter(Boolean).map(Number);
const randomScripts: Script[] = scriptsFor(
  [
    ...[11, 12, 13, 14, ...extraSeeds].map((seed) => randomScript(seed, RANDOM_LENGTH, { pipelined: false })),
    ...[21, 22, 23, 24, ...extraSeeds].map((seed) => randomScript(seed, RANDOM_LENGTH, { pipelined: true })),
    ...[31, 32, ...extraSeeds].map((seed) =>
      randomScript(seed, RANDOM_LENGTH, { pipelined: true, twoSessions: true }),
    ),
    ...[41, 42, ...extraSeeds].map((seed) =>
      randomScript(seed, RANDOM_LENGTH, { pipelined: true, chroot: true }),
    ),
    ...[51, ...extraSeeds].map((seed) =>
      randomScript(seed, RANDOM_LENGTH, { pipelined: false, twoSessions: true, chroot: true }),
    ),
    ...[61, 62, 63, ...extraSeeds].map((seed) =>
      randomScript(seed, RANDOM_LENGTH, { pipelined: true, oneShotOnPersistent: true }),
    ),
  ],
  RELEASE,
);
const allScripts = [...coverageScripts, ...orderingScripts, ...randomScripts];

let server: ZooKeeperServer;
let admin: ZooKeeperClient;
let java: JavaConformanceDriver;
const results = new Map<Script, Promise<Comparison>>();

beforeAll(async () => {
  // TTL nodes need extendedTypesEnabled. Containers and TTL nodes are checked at the default interval
  // (60 s), so no script sees the server remove one on its own clock.
  server = await startZooKeeper({ jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true'] });
  [admin, java] = await Promise.all([connect({ connectString: server.connectString }), startJavaDriver()]);
  // Every script starts now: Java's one after the other in its JVM, ours one after the other alongside.
  let previous: Promise<unknown> = Promise.resolve();
  for (const script of allScripts) {
    const comparison = runBoth(script, RELEASE, server.connectString, admin, java, previous);
    comparison.catch(() => {});
    results.set(script, comparison);
    previous = comparison;
  }
}, 120_000);

afterAll(async () => {
  await Promise.allSettled(results.values());
  await java?.close();
  await admin?.close();
  await server?.[Symbol.asyncDispose]();
});

async function expectSame(script: Script): Promise<Comparison> {
  const comparison = await (results.get(script) as Promise<Comparison>);
  expect(comparison.differences, comparison.report).toEqual([]);
  return comparison;
}

describe(`our client and the Java ${RELEASE} client give the same streams`, () => {
  describe('coverage', () => {
    it.each(coverageScripts.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
      const { java: javaRun } = await expectSame(script);
      // A comparison of two empty streams would prove nothing.
      expect(javaRun.streams.flat().length).toBeGreaterThan(script.batches.length / 2);
    });
  });

  describe('pipelined ordering (issue 12 §1-§2)', () => {
    it.each(orderingScripts.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
      await expectSame(script);
    });
  });

  describe('seeded random sequences', () => {
    it.each(randomScripts.map((s) => [s.name, s] as const))('%s', async (_name, script) => {
      await expectSame(script);
    });
  });
});

/**
 * Each accepted difference, with a script whose streams differ without it: proof that the entry is needed
 * and that the comparison without it would fail. Not listed: 'one-notification-order' and
 * 'unordered-lists', whose orders come from Java's identity hash codes and the server's hash sets, so a
 * run may or may not show them. Only the entries that apply to the run's release are checked.
 */
const NEEDED: Record<string, string> = {
  'getEphemerals-chroot': 'chroot session',
  'base-path': 'create modes',
  'zxids-and-times': 'versions',
  'event-zxids': 'one-shot watches',
  'session-ids': 'create modes',
  'exists-missing-node': 'one-shot watches',
  'empty-acl': 'ACLs and digest auth',
  'multi-create-path-chroot': 'chroot session',
  'argument-errors': 'bad paths and arguments',
  'addAuth-has-no-callback': 'ACLs and digest auth',
  'multiRead-callback-code': 'multi and multiRead per-op codes',
  'ZOOKEEPER-4475': 'recursive watch and a one-shot child watch below it (ZOOKEEPER-4475)',
  'ZOOKEEPER-4466': 'one-shot watch on a persistently watched path (ZOOKEEPER-4466)',
  'ZOOKEEPER-4472': 'removing the child or data watches of a persistently watched path (ZOOKEEPER-4472)',
  'removed-watcher-server-watch': 'the server watch after its last watcher was removed (ZOOKEEPER-1910)',
};

const MAY_NOT_SHOW = ['one-notification-order', 'unordered-lists'];
const applying = ACCEPTED_DIFFERENCES.filter((d) => appliesTo(d, RELEASE)).map((d) => d.id);

describe(`every accepted difference that applies to ${RELEASE} is needed`, () => {
  it('each has a script that shows it', () => {
    expect(applying.filter((id) => !MAY_NOT_SHOW.includes(id) && !(id in NEEDED))).toEqual([]);
  });

  it.each(Object.entries(NEEDED).filter(([id]) => applying.includes(id)))(
    '%s (seen in "%s")',
    async (id, name) => {
      const script = coverageScripts.find((s) => s.name === name);
      if (script === undefined) throw new Error(`"${name}" is not played on ${RELEASE}`);
      const agreed = await (results.get(script) as Promise<Comparison>);
      const without = compareRuns(script, RELEASE, agreed.java, agreed.ours, [id]);
      expect(without.differences.length, `${name} without ${id}`).toBeGreaterThan(0);
    },
  );
});

describe('the comparison can fail (faults injected into a real run)', () => {
  /** A real run of the first coverage script whose two sides agree, with a fault put into our stream. */
  async function agreeingRun(): Promise<Comparison> {
    for (const script of coverageScripts) {
      const comparison = await (results.get(script) as Promise<Comparison>);
      if (
        comparison.differences.length === 0 &&
        comparison.ours.streams[0]?.some((e) => e.kind === 'event')
      ) {
        return comparison;
      }
    }
    throw new Error('no coverage script agreed on both sides, with events');
  }
  const withOurs = (c: Comparison, mutate: (stream: Entry[]) => Entry[]) =>
    compareRuns(c.script, RELEASE, c.java, {
      ...c.ours,
      streams: c.ours.streams.map((s, k) => (k === 0 ? mutate([...s]) : s)),
    });

  it('reports a wrong result', async () => {
    const c = await agreeingRun();
    const report = withOurs(c, (stream) => {
      const k = stream.findIndex((e) => e.kind === 'result' && e.op === 'getData');
      const entry = stream[k] as Extract<Entry, { kind: 'result' }>;
      stream[k] = { ...entry, value: { ...(entry.value as object), data: 'not what the server said' } };
      return stream;
    });
    expect(report.differences.map((d) => d.kind)).toEqual(['wrong-result']);
    expect(report.report).toContain('not what the server said');
  });

  it('reports a lost event', async () => {
    const c = await agreeingRun();
    const report = withOurs(c, (stream) =>
      stream.filter((_e, k) => k !== stream.findIndex((x) => x.kind === 'event')),
    );
    expect(report.differences.map((d) => d.kind)).toEqual(['missing-in-ours']);
    expect(report.differences[0]?.java?.kind).toBe('event');
  });

  it('reports a swapped pair', async () => {
    const c = await agreeingRun();
    const report = withOurs(c, (stream) => {
      const k = stream.findIndex((e) => e.kind === 'event');
      [stream[k - 1], stream[k]] = [stream[k] as Entry, stream[k - 1] as Entry];
      return stream;
    });
    expect(report.differences.map((d) => d.kind)).toEqual(['swapped']);
  });
});

/**
 * The calls a release's server lacks: its Java client has no such methods, so there is nothing to compare
 * with; ours answers them locally with UnsupportedByServerError naming both versions, and the session lives
 * on (a gated call that reached an old server would cost the connection).
 */
const GATED: { call: string; since: string; run: (zk: ZooKeeperClient) => Promise<unknown> }[] = [
  { call: 'addWatch', since: '3.6.0', run: (zk) => zk.addWatch('/', 'persistent', () => {}) },
  { call: 'multiRead', since: '3.6.0', run: (zk) => zk.multiRead([readOp.getData('/')]) },
  { call: 'getEphemerals', since: '3.6.0', run: (zk) => zk.getEphemerals('/') },
  { call: 'getAllChildrenNumber', since: '3.6.0', run: (zk) => zk.getAllChildrenNumber('/') },
  { call: 'whoAmI', since: '3.7.0', run: (zk) => zk.whoAmI() },
];
const lacking = GATED.filter((g) => !versionAtLeast(RELEASE, g.since));
if (lacking.length > 0) {
  describe(`the calls ${RELEASE} lacks are answered by our client alone`, () => {
    it.each(lacking.map((g) => [g.call, g] as const))('%s', async (_call, gated) => {
      const zk = await connect({ connectString: server.connectString });
      try {
        const states: ConnectionState[] = [];
        zk.on('state', (state) => states.push(state));
        const error = await gated.run(zk).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(UnsupportedByServerError);
        expect(error).toMatchObject({ requiredVersion: gated.since, serverVersion: RELEASE });
        // Nothing reached the server: the connection was never lost, and it still answers.
        expect(await zk.exists('/')).not.toBeNull();
        expect(states).toEqual([]);
      } finally {
        await zk.close();
      }
    });
  });
}
