/**
 * Shapes shared by the orchestrator (main process) and the workers (one child process per measurement),
 * which talk to each other in JSON: a worker gets a {@link CellSpec} and prints one {@link CellResult}.
 */

/** Every contender the bench knows; `ids` fixes the order of columns in tables and charts. */
export const ContenderId = {
  ours: 'ours',
  raw: 'raw',
  rawPaced: 'raw-paced',
  nzc: 'node-zookeeper-client',
  native: 'zookeeper-native',
  java: 'java',
  curator: 'curator',
} as const;
export type ContenderId = (typeof ContenderId)[keyof typeof ContenderId];
export const contenderIds: readonly ContenderId[] = Object.values(ContenderId);

/** What the `ours` contender runs: its build, as users get it (default), or its sources through tsx. */
export type OursFrom = 'built' | 'source';

/** How a scenario measures: a closed loop with N in flight, a paced open loop, or a sequence of waits. */
export type ScenarioKind = 'throughput' | 'latency' | 'session' | 'watch' | 'codec' | 'recipe' | 'memory';

/** Which contenders can run a kind of scenario (the others are skipped, and shown as n/a). */
export function supports(contender: ContenderId, kind: ScenarioKind): boolean {
  if (kind === 'codec') return false;
  if (kind === 'recipe') return contender === 'ours' || contender === 'curator';
  // The paced raw limit only differs from the raw limit where many requests are in flight.
  if (contender === 'raw-paced') return kind === 'throughput';
  // Memory is a client's own: the raw limit keeps no state per watch or request.
  if (kind === 'memory') return contender !== 'raw' && contender !== 'curator';
  return contender !== 'curator';
}

/** The operations a throughput cell repeats; one "op" of createDelete is a create followed by a delete. */
export type ThroughputOp = 'getData' | 'exists' | 'setData' | 'createDelete' | 'getChildren' | 'multi';

/** The znodes a run prepares before the clock starts (see fixtures.ts). */
export interface FixturePaths {
  /** root of this run: every other path lies under it and the run deletes it at the end */
  root: string;
  /** a node holding `dataSize` bytes: getData, exists, setData, latency */
  data: string;
  /** a node with 1,000 children: getChildren */
  children: string;
  /** ten nodes that each multi sets in one transaction */
  multi: string[];
  /** parent under which createDelete makes and removes one child per slot in flight */
  scratch: string;
  /** the node a watch cell changes from a second session */
  watch: string;
  /** a tree of 10,000 nodes for the cache scenarios (made only when a run includes one) */
  cacheTree?: string;
  /** a tree of 100,000 nodes for the memory scenario (made only when a run includes it; see memory-tree.ts) */
  memoryTree?: string;
}

/**
 * What a memory cell measures: heap and RSS per armed one-shot watch, for one persistent recursive watch
 * (armed, then after an event per node), or per request in flight.
 */
export type MemoryCell = 'watches' | 'recursive' | 'inFlight';

/** What one worker measures: one contender, one scenario, one depth, one round. */
export interface CellSpec {
  contender: ContenderId;
  scenario: string;
  kind: ScenarioKind;
  op?: ThroughputOp;
  /** memory cells: what is measured; `inFlight` is then the count (watches, nodes or requests) */
  memoryCell?: MemoryCell;
  inFlight: number;
  /** requests per second for latency cells */
  rate?: number;
  warmupMs: number;
  durationMs: number;
  connectString: string;
  paths: FixturePaths;
  dataSize: number;
  /** a unique suffix so that concurrent or repeated cells never collide on scratch nodes */
  cellId: string;
  /**
   * throughput and open-loop latency cells run in turns with the other contenders of their case and round
   * (turns.ts, open-loop-turns.ts)
   */
  turns?: TurnSchedule;
}

/**
 * Taking turns: every contender of a case runs at once, in its own process, but only one drives the server
 * at a time. Turn k of cycle c starts at startAt + (c * of + k) * (turnMs + gapMs) (epoch ms); cycle 0
 * warms up and is not counted. Contenders measured a few hundred ms apart see the same machine, so the
 * ratio between them moves far less from run to run than when each runs for seconds after the other.
 * startAt is not in the spec: each worker prints READY_MARKER once connected and reads startAt from its
 * stdin, which the orchestrator writes once every contender of the case is ready (start-barrier.ts).
 */
export interface TurnSchedule {
  /** this contender's turn in each cycle, and how many contenders take turns */
  index: number;
  of: number;
  turnMs: number;
  /** between turns: the contender that just ran lets its requests in flight finish */
  gapMs: number;
  /** measured cycles (after the warm-up cycle) */
  cycles: number;
  /**
   * Before the first turn, every contender's closed loop runs this long at once, unmeasured (0: not at all;
   * open loops never do: all of them at once would send several times the case's rate). A process measured
   * in its first second runs code still being compiled: ours' CPU per multi was about half as much again in
   * its second and third 333 ms than from its second second on, and a JVM warms up slower still.
   */
  warmUpMs: number;
}

/** Latency figures in microseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

/**
 * A memory cell's raw figures: per try, the growth of the heap and of RSS (bytes) from a connected session's
 * baseline, both taken after a full GC. Node: heap = V8 heap used + external (ArrayBuffers and other memory
 * V8 is told about); Java: used heap after System.gc(). RSS is the whole process's resident set.
 */
export interface MemoryTries {
  /** what the growth is divided by: watches armed, requests in flight, or 1 (the recursive watch) */
  units: number;
  heapBytes: number[];
  rssBytes: number[];
  /** the recursive cell: growth from the same baseline once the events of a setData per node were handled */
  afterEvents?: { events: number; heapBytes: number[]; rssBytes: number[] };
}

/** What a worker prints (one JSON line on stdout). */
export type CellResult =
  | {
      ok: true;
      /** operations completed inside the measured window */
      ops: number;
      /** length of the measured window */
      elapsedMs: number;
      /** client process CPU time (user + system) inside the window, in microseconds */
      cpuUs: number;
      /** operations that completed with an error inside the window (a sane run has none) */
      errors: number;
      /** turn cells: the longest wait, after a turn, for the requests in flight to finish (see TurnSchedule) */
      drainMs?: number;
      /** turn cells: ops/s of each measured turn, cycle by cycle, 0 for a lost one (stats.ts pairs them) */
      turnRates?: number[];
      /** turn cells: client CPU µs per op of each measured turn, aligned with turnRates (0 where it is 0) */
      turnCpuUsPerOp?: number[];
      /** open-loop turn cells: each measured turn's p99 in µs, aligned with turnRates (0 where it is 0) */
      turnP99Us?: number[];
      /** turn cells: turns left out because the worker's event loop was busy through them (turn-trace.ts) */
      lostTurns?: number;
      latency?: LatencySummary;
      /** memory cells: the figures of every try */
      memory?: MemoryTries;
      note?: string;
    }
  | {
      ok: false;
      error: string;
      unsupported?: boolean;
      /** a turn cell whose every measured turn was lost to its own busy event loop (turn-trace.ts) */
      turnsLost?: boolean;
    };

/** A turn cell's worker prints this line once connected, then waits for its start time on stdin. */
export const READY_MARKER = '@@ready';

/** The marker the orchestrator looks for in a worker's stdout, before the CellResult JSON. */
export const RESULT_MARKER = '@@result ';
