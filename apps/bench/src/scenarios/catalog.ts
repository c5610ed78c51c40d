/**
 * The scenario catalog: each name expands to one or more cases (a scenario at one depth), and every case is
 * measured for every contender that supports its kind, in every round.
 */
import type { ScenarioKind, ThroughputOp } from '../types.js';

/** One row group of the report. */
export interface BenchCase {
  /** the scenario name, plus `@depth` for throughput and memory cases: `getData@1000` */
  key: string;
  scenario: string;
  kind: ScenarioKind;
  op?: ThroughputOp;
  inFlight: number;
  /** open-loop cases at a fixed rate (`latency`) */
  rate?: number;
  /** open-loop cases at a share of the saturation rate measured in each round (`latency50`, `latency90`) */
  saturationShare?: number;
  title: string;
}

interface ScenarioDef {
  kind: ScenarioKind;
  describe: string;
  op?: ThroughputOp;
  depths?: readonly number[];
  saturationShare?: number;
  /** not in a default run: runs only when named */
  optIn?: boolean;
}

const DEPTHS = [1, 16, 256, 1000] as const;
/** Requests per second of the fixed-rate latency case. */
const LATENCY_RATE = 2_000;

const throughput = (op: ThroughputOp, describe: string): ScenarioDef => ({
  kind: 'throughput',
  op,
  depths: DEPTHS,
  describe,
});

const atShare = (share: number): ScenarioDef => ({
  kind: 'latency',
  saturationShare: share,
  describe: `getData latency, open loop at ${share * 100}% of the saturation rate measured in the round`,
});
const recipe = (describe: string): ScenarioDef => ({ kind: 'recipe', describe });

/** Every scenario, in the order of the report. */
export const scenarios: Record<string, ScenarioDef> = {
  getData: throughput('getData', 'getData of a 100-byte node'),
  exists: throughput('exists', 'exists of a node'),
  setData: throughput('setData', 'setData of a 100-byte node'),
  createDelete: throughput('createDelete', 'create then delete of a node (one op = both)'),
  getChildren: throughput('getChildren', 'getChildren of a node with 1,000 children'),
  multi: throughput('multi', 'multi of 10 setData'),
  latency: { kind: 'latency', describe: `getData latency, open loop at ${LATENCY_RATE} req/s` },
  latency50: atShare(0.5),
  latency90: atShare(0.9),
  session: { kind: 'session', describe: 'session setup: connect until connected, close in the background' },
  watch: { kind: 'watch', describe: 'watch notification: setData on one session, the event on another' },
  lockUncontended: recipe('InterProcessMutex acquire + release, uncontended'),
  lockHandoff: recipe('InterProcessMutex handed off among 10 sessions'),
  queue: recipe('SimpleDistributedQueue offer + take of one 100-byte item'),
  distributedQueue: recipe('DistributedQueue: one producer, one consumer, items consumed per second'),
  queuePutMulti: recipe('DistributedQueue: putMulti of 10 items, one consumer, items consumed per second'),
  queueLatency: recipe('DistributedQueue: put() to the consumer, one item at a time'),
  cacheLoad: recipe('CuratorCache initial load of 10,000 nodes (one op = one load; note: heap per node)'),
  cacheLatency: recipe('CuratorCache: setData on another session to the cache event'),
  modeledRead: {
    kind: 'recipe',
    describe:
      'CachedModeledFramework: a cached read of one of 10,000 models (@zkwire/modeled, curator-x-async)',
    optIn: true,
  },
  modeledUpdate: {
    kind: 'recipe',
    describe:
      'versioned() read-modify-write of one model by two sessions, retried on BadVersion (one op = an update)',
    optIn: true,
  },
  cacheScale: {
    kind: 'scale',
    depths: [10_000, 100_000, 1_000_000],
    describe:
      'CuratorCache of a tree (100-byte data, fan-out 100): initial load, then two writers for the window (10 s)',
    optIn: true,
  },
  sessions: {
    kind: 'scale',
    depths: [1_000, 10_000],
    describe: 'sessions from one process: a connect storm, then idle with pings',
    optIn: true,
  },
  watchRestore: {
    kind: 'scale',
    depths: [10_000, 100_000],
    describe: 'watches armed on one session, its connection cut: reconnect until every watch is restored',
    optIn: true,
  },
  memory: {
    kind: 'memory',
    describe: 'client heap and RSS per armed watch and per request in flight',
    optIn: true,
  },
};

/** What a default run (and `all`) measures: every scenario that is not opt-in. */
export const defaultScenarios = Object.keys(scenarios).filter((name) => !scenarios[name]?.optIn);
/** What --quick measures: the headline case and one of each other Node kind, in about a minute. */
export const quickScenarios = ['getData', 'setData', 'latency', 'watch'];
const quickDepths: Record<string, number[]> = { getData: [1000], setData: [256] };

/** Expands scenario names into cases (names are checked by the options parser). */
export function expandCases(
  names: readonly string[],
  options: { quick: boolean; inFlight?: number[]; sizes?: number[] },
): BenchCase[] {
  return names.flatMap((name): BenchCase[] => {
    const def = scenarios[name];
    if (!def) throw new Error(`unknown scenario "${name}"`);
    const { kind } = def;
    if (kind === 'memory') {
      const n = 10_000;
      const count = n.toLocaleString('en-US');
      return [
        ['memoryWatches', `memory per armed one-shot watch: getData with a watch on ${count} nodes`],
        ['memoryInFlight', `memory per request in flight: ${count} getData issued at once`],
      ].map(([scenario = '', title = '']) => ({
        key: `${scenario}@${n}`,
        scenario,
        kind,
        inFlight: n,
        title,
      }));
    }
    if (kind === 'scale') {
      return (options.sizes ?? def.depths ?? []).map((size) => ({
        ...{ key: `${name}@${size}`, scenario: name, kind, inFlight: size },
        title: `${def.describe}; size ${size.toLocaleString('en-US')}`,
      }));
    }
    if (kind !== 'throughput') {
      const share = def.saturationShare;
      const rate = kind === 'latency' && share === undefined ? LATENCY_RATE : undefined;
      const fixed = { key: name, scenario: name, kind, inFlight: 1, title: def.describe };
      return [{ ...fixed, ...(rate && { rate }), ...(share && { saturationShare: share }) }];
    }
    const depths = options.inFlight ?? (options.quick ? quickDepths[name] : undefined) ?? def.depths ?? [1];
    return depths.map((inFlight) => ({
      ...{ key: `${name}@${inFlight}`, scenario: name, kind, inFlight },
      ...(def.op && { op: def.op }),
      title: `${def.describe}, ${inFlight} in flight`,
    }));
  });
}
