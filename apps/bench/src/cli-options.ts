/** Command-line flags of the bench (see README.md). */
import { parseArgs } from 'node:util';
import { defaultScenarios, quickScenarios, scenarios } from './scenarios.js';
import { type ContenderId, contenderIds, type OursFrom } from './types.js';

/** Everything a run is told. */
export interface BenchOptions {
  quick: boolean;
  scenarios: string[];
  contenders: ContenderId[];
  /** `built` (default): our client bundled as published; `source`: its sources through tsx */
  oursFrom: OursFrom;
  rounds: number;
  warmupMs: number;
  durationMs: number;
  /**
   * the window of a session-setup cell: --duration when given, else 5,000 ms (500 with --quick, 8,000 with
   * --precise). A 1 s window counted the JIT compiling each client's connect path, and more so the larger
   * the client.
   */
  sessionDurationMs: number;
  inFlight?: number[];
  rate: number;
  dataSize: number;
  json: boolean;
  connect?: string;
  outDir?: string;
  pin: boolean;
  /** the embedded server held to half of one core (a cgroup CPU quota): a server about half as fast */
  slowServer: boolean;
  /**
   * the embedded server without NIO worker threads (its selector thread reads and parses requests itself):
   * on one core about three times as fast, so the clients, not the server, set the pace
   */
  fastServer: boolean;
  /**
   * throughput and open-loop latency cases in turns of this many ms (0: one contender after the other, each
   * for warm-up + duration); see TurnSchedule in types.ts
   */
  turnMs: number;
  /** open-loop latency cases' turns (0 when turns are off): longer, see DEFAULT_OPEN_LOOP_TURN_MS */
  openLoopTurnMs: number;
  /** between turns, for the requests in flight to finish */
  turnGapMs: number;
  /** cases in turns: every contender's loop first runs this long at once (TurnSchedule.warmUpMs) */
  turnWarmupMs: number;
  help: boolean;
}

/**
 * Throughput turns (TurnSchedule in types.ts). 400 ms turns with 250 ms between them: a turn is long
 * enough for a closed loop of 1,000 to settle, and a cycle of five contenders (about 3 s) is short next to
 * the minutes over which a shared 2-core machine's speed drifts.
 */
const DEFAULT_TURN_MS = 400;
/**
 * Open-loop turns. With 400 ms turns, both ours' and the raw limit's p99 at 50% of saturation were 4.5-5.5 ms,
 * against 2.2-2.4 ms with 2 s turns and 2.1-2.4 ms for each alone; ours' came out 1.21x the raw limit's over
 * five 8 s rounds, 1.02x with 2 s turns (2026-11-27, Intel Xeon, 2 cores). Something at the edges of a turn
 * sets a short turn's tail (which, was not pinned down: the turn's first 80 ms are already left out), and a p99
 * is only the worst 1% of a turn's requests; in 2 s turns the edges are a fifth as many.
 */
const DEFAULT_OPEN_LOOP_TURN_MS = 2_000;
/**
 * The warm-up before the first turn (TurnSchedule.warmUpMs). Ours' CPU per multi of 10 setData at 1,000 in
 * flight settled within ~1 s of a fresh process, but at 1 in flight (fewer calls a second, so functions get hot
 * later) ours / the raw limit was 0.94x and 0.91x for multi, 0.94x and 0.96x for getData after 1.5 s of warm-up,
 * 0.98x and 0.96x, 0.97x and 0.97x after 5 s (two runs each, 2026-11-27, Intel Xeon, 2 cores). It adds ~5 s to
 * each case in turns of a round (~11 min to a full run of 5 rounds).
 */
const DEFAULT_TURN_WARMUP_MS = 5_000;
/** A session-setup cell's default window (see sessionDurationMs). */
const SESSION_DURATION_MS = 5_000;

/** The defaults that --quick and --precise set; a flag given on the command line wins over them. */
interface RunDefaults {
  rounds: number;
  durationMs: number;
  sessionDurationMs: number;
  warmupMs: number;
  openLoopTurnMs: number;
  turnWarmupMs: number;
}

const DEFAULTS: RunDefaults = {
  rounds: 3,
  durationMs: 1_000,
  sessionDurationMs: SESSION_DURATION_MS,
  warmupMs: 300,
  openLoopTurnMs: DEFAULT_OPEN_LOOP_TURN_MS,
  turnWarmupMs: DEFAULT_TURN_WARMUP_MS,
};

/** --quick: a smoke run in seconds (CI), not a measurement. */
const QUICK_DEFAULTS: RunDefaults = {
  rounds: 1,
  durationMs: 500,
  sessionDurationMs: 500,
  warmupMs: 250,
  openLoopTurnMs: DEFAULT_TURN_MS,
  turnWarmupMs: 200,
};

/**
 * --precise: rounds and window per cell of a run that decides targets. One turn pair's ours / ceiling spreads
 * by ~0.17 (standard deviation of its logarithm, AMD EPYC, 2026-11-25), so two runs' medians of n pairs differ
 * by about 1.4 x 1.25 x 0.17 / sqrt(n): 3% takes ~100 pairs, 5 rounds of 20 cycles (8 s each in 400 ms turns).
 * Two such runs of getData and multi at 256 and 1,000 in flight agreed within 0.2-2.0% in all four cases, where
 * default runs (15 pairs) differ by ~8% (2026-11-27, Intel Xeon, 2 cores).
 */
const PRECISE_DEFAULTS: RunDefaults = { ...DEFAULTS, rounds: 5, durationMs: 8_000, sessionDurationMs: 8_000 };

/** Short names accepted by --contenders. */
const aliases: Record<string, ContenderId> = { nzc: 'node-zookeeper-client', native: 'zookeeper-native' };

/** Help text printed by --help. */
export const usage = `Usage: npm run bench -- [options]

  --quick                 smoke run in seconds (CI): few cases, short windows, one round
  --precise               a run that decides targets: 5 rounds of 8 s per cell (~100 turn pairs per case,
                          so that two runs agree within ~3%); --rounds and --duration still override
  --scenario a,b          ${Object.keys(scenarios).join(', ')}, or all (default: all;
                          memory runs only when named: --scenario memory)
  --contenders a,b        ${contenderIds.join(', ')} (nzc, native for short; default: all)
  --ours-from built|source  our client as published, bundled from its sources by esbuild as tsup builds
                          it (default), or its sources through tsx (which wraps named closures)
  --rounds N              interleaved rounds; medians and min-max are over them (default 3, quick 1,
                          precise 5)
  --duration MS           measured window per cell (default 1000, quick 500, precise 8000; session setup
                          5000, precise 8000)
  --warmup MS             unmeasured warm-up per cell (default 300, quick 250)
  --turns MS|off          throughput and latency cases: every contender of a case runs at once and they take
                          turns of MS each at the server, --duration in total per contender (a warm-up turn
                          first; default 400); off: one after the other, each for --warmup + --duration
  --open-loop-turns MS    open-loop latency cases' turns (default 2000, quick 400): in shorter turns the
                          edges of each turn set the p99
  --turn-gap MS           pause between turns, for the requests in flight to finish (default 250)
  --turn-warmup MS        cases in turns: before the first turn, every contender's loop runs MS at once,
                          unmeasured (an open loop at its share of the case's rate), so that no process is
                          measured while its code is still being compiled (default 5000, quick 200; 0: none)
  --in-flight 1,16,...    depths for the throughput scenarios (default per scenario)
  --rate N                requests per second of the latency scenario (default 2000); latency50 and
                          latency90 send at 50% / 90% of the saturation rate measured in each round
  --data-size N           bytes per znode value (default 100)
  --connect host:port     use this server instead of starting an embedded one
  --out DIR               results base folder (default apps/bench/results)
  --no-pin                do not pin server and clients to separate cores with taskset
  --slow-server           hold the embedded server to half of one core (a cgroup CPU quota; root)
  --fast-server           start the embedded server without NIO worker threads: on one core about three
                          times as fast, so the clients' own cost shows (zookeeper.nio.numWorkerThreads=0)
  --json                  print the results JSON on stdout (progress stays on stderr)
`;

/** An integer option of at least `min` (1 unless said), or `fallback` when not given. */
function integer(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    const what = min === 1 ? 'a positive integer' : `an integer of ${min} or more`;
    throw new Error(`--${name} must be ${what}, got "${value}"`);
  }
  return n;
}

function list(value: string | undefined): string[] | undefined {
  return value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Parses argv (without node and script); throws a readable error on a bad flag. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      precise: { type: 'boolean', default: false },
      scenario: { type: 'string' },
      contenders: { type: 'string' },
      'ours-from': { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'turn-warmup': { type: 'string' },
      'in-flight': { type: 'string' },
      rate: { type: 'string' },
      'data-size': { type: 'string' },
      json: { type: 'boolean', default: false },
      connect: { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean', default: false },
      'slow-server': { type: 'boolean', default: false },
      'fast-server': { type: 'boolean', default: false },
      turns: { type: 'string' },
      'turn-gap': { type: 'string' },
      'open-loop-turns': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const quick = values.quick === true;
  if (quick && values.precise) throw new Error('--quick and --precise: choose one');
  const defaults = quick ? QUICK_DEFAULTS : values.precise ? PRECISE_DEFAULTS : DEFAULTS;
  const turnsOff = values.turns === 'off';
  const scenarioList = list(values.scenario);
  const names =
    !scenarioList || scenarioList.includes('all')
      ? quick && !scenarioList
        ? quickScenarios
        : [...new Set([...defaultScenarios, ...(scenarioList ?? []).filter((n) => n !== 'all')])]
      : scenarioList;
  for (const name of names) {
    if (!scenarios[name])
      throw new Error(`unknown scenario "${name}"; known: ${Object.keys(scenarios).join(', ')}, all`);
  }
  const contenders = (list(values.contenders) ?? [...contenderIds]).map((name) => {
    const id = aliases[name] ?? name;
    if (!contenderIds.includes(id as ContenderId)) {
      throw new Error(`unknown contender "${name}"; known: ${contenderIds.join(', ')} (or nzc, native)`);
    }
    return id as ContenderId;
  });
  const oursFrom = values['ours-from'] ?? 'built';
  if (oursFrom !== 'built' && oursFrom !== 'source') {
    throw new Error(`--ours-from must be built or source, not "${oursFrom}"`);
  }
  if (values['slow-server'] && values.connect) {
    throw new Error('--slow-server slows the embedded server: not with --connect');
  }
  if (values['fast-server'] && values.connect) {
    throw new Error('--fast-server starts the embedded server differently: not with --connect');
  }
  if (values['fast-server'] && values['slow-server']) {
    throw new Error('--fast-server and --slow-server: choose one');
  }
  const inFlight = list(values['in-flight'])?.map((v) => integer('in-flight', v, 1));
  return {
    quick,
    scenarios: names,
    contenders: [...new Set(contenders)],
    oursFrom,
    rounds: integer('rounds', values.rounds, defaults.rounds),
    durationMs: integer('duration', values.duration, defaults.durationMs),
    sessionDurationMs: integer('duration', values.duration, defaults.sessionDurationMs),
    warmupMs: integer('warmup', values.warmup, defaults.warmupMs),
    ...(inFlight ? { inFlight } : {}),
    rate: integer('rate', values.rate, 2_000),
    dataSize: integer('data-size', values['data-size'], 100),
    json: values.json === true,
    ...(values.connect ? { connect: values.connect } : {}),
    ...(values.out ? { outDir: values.out } : {}),
    pin: values['no-pin'] !== true,
    slowServer: values['slow-server'] === true,
    fastServer: values['fast-server'] === true,
    turnMs: turnsOff ? 0 : integer('turns', values.turns, DEFAULT_TURN_MS),
    openLoopTurnMs: turnsOff
      ? 0
      : integer('open-loop-turns', values['open-loop-turns'], defaults.openLoopTurnMs),
    turnGapMs: integer('turn-gap', values['turn-gap'], 250),
    turnWarmupMs: integer('turn-warmup', values['turn-warmup'], defaults.turnWarmupMs, 0),
    help: values.help === true,
  };
}
