/**
 * Shapes shared by the orchestrator and the workers (one child process per cell): a worker gets a CellSpec
 * (external drivers as `key=value` arguments, contenders/driver-protocol.ts) and prints one CellResult.
 */

/** Every contender, in the order of the report's columns. */
export const contenderIds = [
  'ours',
  'baseline',
  'raw',
  'raw-paced',
  'node-zookeeper-client',
  'zookeeper-native',
  'java',
  'go',
  'rust',
  'curator',
] as const;
export type ContenderId = (typeof contenderIds)[number];

/**
 * How a scenario measures: a closed loop, an open loop at a rate, a sequence of waits, memory growth, or the
 * cost of one thing at a size (scale: `inFlight` is the size).
 */
export type ScenarioKind = 'throughput' | 'latency' | 'session' | 'watch' | 'recipe' | 'memory' | 'scale';

/** The operation a throughput cell repeats; one op of createDelete is a create followed by a delete. */
export type ThroughputOp = 'getData' | 'exists' | 'setData' | 'createDelete' | 'getChildren' | 'multi';

/**
 * The znodes a run makes before the first cell (fixtures.ts), all under `root`: `data` of `dataSize` bytes,
 * `children` with 1,000 children, the ten nodes a multi sets, `scratch` for createDelete's nodes, the node a
 * watch cell changes, and (when a run has a cache or memory case) a `tree` of 10,000 nodes.
 */
export interface FixturePaths {
  root: string;
  data: string;
  children: string;
  multi: string[];
  scratch: string;
  watch: string;
  tree?: string;
}

/**
 * Taking turns: every contender of a case runs at once, each in its own process, and only one drives the
 * server at a time. Turn k of cycle c starts at startAt + (c * of + k) * (turnMs + gapMs) (epoch ms, read
 * from stdin once every worker is ready); cycle 0 warms up and is not counted. Two contenders measured a few
 * hundred ms apart see the same machine, so their ratio moves far less than when each runs for seconds.
 */
export interface TurnSchedule {
  /** this contender's turn in each cycle, of `of` */
  index: number;
  of: number;
  turnMs: number;
  /** between turns, for the requests in flight to finish */
  gapMs: number;
  /** measured cycles, after the warm-up cycle */
  cycles: number;
  /** before the first turn, every contender's loop runs this long at once, so that none is measured cold */
  warmUpMs: number;
}

/** What one worker measures: one contender, one case, one round. */
export interface CellSpec {
  contender: ContenderId;
  scenario: string;
  kind: ScenarioKind;
  op?: ThroughputOp;
  /** requests in flight; memory cells: how many watches or requests */
  inFlight: number;
  /** open-loop cells: requests per second */
  rate?: number;
  warmupMs: number;
  durationMs: number;
  connectString: string;
  paths: FixturePaths;
  dataSize: number;
  /** unique per cell, so that scratch nodes never collide */
  cellId: string;
  turns?: TurnSchedule;
  /** cacheScale cells: the tree of `inFlight` nodes the orchestrator made for the case (scale/tree.ts) */
  scaleTree?: string;
}

/** Latency percentiles in microseconds. */
export type LatencySummary = Record<'count' | 'p50' | 'p90' | 'p99' | 'p999' | 'max', number>;

/** A memory cell's tries: growth of heap and RSS (bytes) from a connected baseline, after full GCs. */
export type MemoryTries = { units: number; heapBytes: number[]; rssBytes: number[] };

/**
 * What a scale cell measured at its size. `timeMs` is the scenario's headline cost (the cache's initial load,
 * every session connected, every watch restored), the figure its slope against size is taken of; the others
 * are named figures of the scenario (scale/figures.ts names them for the report).
 */
export type ScaleResult = { size: number; timeMs: number; figures: Record<string, number> };

/** What a worker prints. */
export type CellResult =
  | {
      ok: true;
      /** operations completed inside the measured window(s) */
      ops: number;
      elapsedMs: number;
      /** client process CPU (user + system) inside the window(s), µs */
      cpuUs: number;
      /** operations that failed inside the window(s) */
      errors: number;
      /** turn cells: per measured turn, ops/s (0 for a lost turn), CPU µs per op and p99 µs where known */
      turnRates?: number[];
      turnCpuUsPerOp?: number[];
      turnP99Us?: number[];
      /** turn cells: the longest wait after a turn for its requests in flight */
      drainMs?: number;
      /** turn cells: turns whose window the worker's busy event loop left too short to count */
      lostTurns?: number;
      latency?: LatencySummary;
      memory?: MemoryTries;
      scale?: ScaleResult;
      note?: string;
    }
  | { ok: false; error: string; unsupported?: boolean };

/** A turn cell's worker prints this once it is ready, then reads its start time from stdin. */
export const READY_MARKER = '@@ready';
/** The line of a worker's stdout that carries its CellResult JSON. */
export const RESULT_MARKER = '@@result ';
