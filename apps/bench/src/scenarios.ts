/**
 * The scenario catalog: each name expands to one or more cases (a case = one scenario at one depth), and
 * every case is measured for every contender in every round.
 */
import { MEMORY_NODES } from './memory-tree.js';
import type { MemoryCell, ScenarioKind, ThroughputOp } from './types.js';

/** One row of the final table. */
export interface BenchCase {
  /** stable key: scenario name plus depth, e.g. `getData@1000` */
  key: string;
  scenario: string;
  kind: ScenarioKind;
  op?: ThroughputOp;
  /** memory cases: what is measured (`inFlight` is then the count of watches, nodes or requests) */
  memoryCell?: MemoryCell;
  inFlight: number;
  /** requests per second of a fixed-rate latency case (`latency`, --rate) */
  rate?: number;
  /**
   * open-loop cases at a share of the round's measured saturation rate (`latency50`, `latency90`): their
   * rate is only known once the round's calibration ran (saturation.ts), so it is set per cell, not here
   */
  saturationShare?: number;
  /** what a reader sees */
  title: string;
}

interface ScenarioDef {
  kind: ScenarioKind;
  op?: ThroughputOp;
  /** depths measured by default (overridden by --in-flight) */
  depths: readonly number[];
  describe: string;
  /** not in the default run (nor in `all`): runs only when named, e.g. because it takes minutes */
  optIn?: boolean;
  /** latency kind only: the share of the measured saturation rate to send at (else the fixed --rate) */
  saturationShare?: number;
}

/** The memory scenario's cases: what each measures and how many of it. */
export const memoryCases: readonly { cell: MemoryCell; count: number; key: string; title: string }[] = [
  {
    cell: 'watches',
    count: 10_000,
    key: 'memoryWatches@10000',
    title: 'memory per armed one-shot watch: getData with a watch on 10,000 distinct nodes, one session',
  },
  {
    cell: 'watches',
    count: 100_000,
    key: 'memoryWatches@100000',
    title: 'memory per armed one-shot watch: getData with a watch on 100,000 distinct nodes, one session',
  },
  {
    cell: 'recursive',
    count: MEMORY_NODES,
    key: `memoryRecursive@${MEMORY_NODES}`,
    title: `memory of one persistent recursive watch (addWatch) over ${MEMORY_NODES.toLocaleString('en-US')} nodes: armed, then after a setData of every node and its event`,
  },
  {
    cell: 'inFlight',
    count: 10_000,
    key: 'memoryInFlight@10000',
    title: 'memory per request in flight: 10,000 getData issued at once, measured before any reply is read',
  },
];

/** The depths: every throughput op is measured at each of them in a full run. */
const ALL_DEPTHS: readonly number[] = [1, 16, 256, 1000];

/** Every scenario, in the order of the report. */
export const scenarios: Record<string, ScenarioDef> = {
  getData: {
    kind: 'throughput',
    op: 'getData',
    depths: ALL_DEPTHS,
    describe: 'getData of a 100-byte node',
  },
  exists: { kind: 'throughput', op: 'exists', depths: ALL_DEPTHS, describe: 'exists of a node' },
  setData: { kind: 'throughput', op: 'setData', depths: ALL_DEPTHS, describe: 'setData of a 100-byte node' },
  createDelete: {
    kind: 'throughput',
    op: 'createDelete',
    depths: ALL_DEPTHS,
    describe: 'create then delete of a node (one op = both)',
  },
  getChildren: {
    kind: 'throughput',
    op: 'getChildren',
    depths: ALL_DEPTHS,
    describe: 'getChildren of a node with 1,000 children',
  },
  multi: { kind: 'throughput', op: 'multi', depths: ALL_DEPTHS, describe: 'multi of 10 setData' },
  latency: { kind: 'latency', depths: [1], describe: 'getData latency at a fixed rate below saturation' },
  latency50: {
    kind: 'latency',
    depths: [1],
    saturationShare: 0.5,
    describe: 'getData latency, open loop at 50% of the saturation rate measured in the same round',
  },
  latency90: {
    kind: 'latency',
    depths: [1],
    saturationShare: 0.9,
    describe: 'getData latency, open loop at 90% of the saturation rate measured in the same round',
  },
  session: {
    kind: 'session',
    depths: [1],
    describe: 'session setup: connect until connected (timed), then close in the background',
  },
  watch: {
    kind: 'watch',
    depths: [1],
    describe: 'watch notification: setData on one session, event on another',
  },
  lockUncontended: {
    kind: 'recipe',
    depths: [1],
    describe: 'InterProcessMutex acquire + release, uncontended',
  },
  lockHandoff: {
    kind: 'recipe',
    depths: [1],
    describe: 'InterProcessMutex hand-off among 10 sessions (acquisitions per second, all together)',
  },
  queue: {
    kind: 'recipe',
    depths: [1],
    describe: 'SimpleDistributedQueue offer + take of one 100-byte item',
  },
  distributedQueue: {
    kind: 'recipe',
    depths: [1],
    describe: 'DistributedQueue: one producer, one consumer, items consumed per second (at most 100 waiting)',
  },
  queuePutMulti: {
    kind: 'recipe',
    depths: [1],
    describe:
      'DistributedQueue batched put: putMulti of 10 items, one consumer, items consumed per second (at most 100 waiting)',
  },
  queueLatency: {
    kind: 'recipe',
    depths: [1],
    describe: 'DistributedQueue end-to-end latency: put() to the consumer handler, one item at a time',
  },
  cacheLoad: {
    kind: 'recipe',
    depths: [1],
    describe:
      'CuratorCache initial load of a 10,000-node tree (one op = one whole load; note: heap per node)',
  },
  cacheLatency: {
    kind: 'recipe',
    depths: [1],
    describe: 'CuratorCache change-to-event latency: setData on another session to the cache event',
  },
  memory: {
    kind: 'memory',
    depths: [1],
    describe:
      'client heap and RSS per armed watch and per request in flight (opt-in: about 10 minutes a round)',
    optIn: true,
  },
  codec: {
    kind: 'codec',
    depths: [1],
    describe: '@zkwire/jute-codec: generic buffer-layout path vs fast path',
  },
};

/** The scenarios of a default run and of `all`: every one that is not opt-in. */
export const defaultScenarios: readonly string[] = Object.keys(scenarios).filter((n) => !scenarios[n]?.optIn);

/** What --quick measures: the headline case and one of each other kind, in seconds. */
export const quickScenarios = ['getData', 'setData', 'latency', 'watch'];
const quickDepths: Record<string, number[]> = { getData: [1000], setData: [256] };

/** Expands scenario names into cases; unknown names throw with the list of known ones. */
export function expandCases(
  names: readonly string[],
  options: { quick: boolean; inFlight?: number[]; rate: number },
): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const name of names) {
    const def = scenarios[name];
    if (!def) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(scenarios).join(', ')}, all`);
    if (def.kind === 'memory') {
      for (const m of memoryCases) {
        cases.push({
          key: m.key,
          scenario: name,
          kind: 'memory',
          memoryCell: m.cell,
          inFlight: m.count,
          title: m.title,
        });
      }
      continue;
    }
    const throughput = def.kind === 'throughput';
    const depths = throughput
      ? (options.inFlight ?? (options.quick ? quickDepths[name] : undefined) ?? def.depths)
      : [1];
    const fixedRate = def.kind === 'latency' && def.saturationShare === undefined;
    for (const inFlight of depths) {
      cases.push({
        key: throughput ? `${name}@${inFlight}` : name,
        scenario: name,
        kind: def.kind,
        ...(def.op ? { op: def.op } : {}),
        inFlight,
        ...(fixedRate ? { rate: options.rate } : {}),
        ...(def.saturationShare !== undefined ? { saturationShare: def.saturationShare } : {}),
        title: throughput
          ? `${def.describe}, ${inFlight} in flight`
          : fixedRate
            ? `${def.describe} (${options.rate} req/s)`
            : def.describe,
      });
    }
  }
  return cases;
}
