/** The bench's command-line flags (README.md, "Running it"). */
import { parseArgs } from 'node:util';
import { aliases } from './contenders/index.js';
import { defaultScenarios, quickScenarios, scenarios } from './scenarios/catalog.js';
import { type ContenderId, contenderIds } from './types.js';

export interface BenchOptions {
  quick: boolean;
  scenarios: string[];
  contenders: ContenderId[];
  rounds: number;
  /** measured time per cell: in turns, the turns' windows added up */
  durationMs: number;
  /** unmeasured warm-up of a cell that runs alone (sessions, watches, recipes) */
  warmupMs: number;
  /** the window of a session-setup cell: longer, since a short one counts the JIT compiling connect paths */
  sessionDurationMs: number;
  /** the window of every scale cell when --duration is given (else 10 s, the 1,000,000-node cell 5 s) */
  scaleWindowMs?: number;
  inFlight?: number[];
  /** the sizes of the scale scenarios (cacheScale, sessions, watchRestore), instead of each one's own */
  sizes?: number[];
  dataSize: number;
  connect?: string;
  zkVersion?: string;
  outDir?: string;
  /** a commit whose client runs as the `baseline` contender */
  baseline?: string;
  writeResults: boolean;
  help: boolean;
  /** turns: closed loops 400 ms, open loops 2 s (in shorter ones the edges of a turn set its p99) */
  turnMs: number;
  openLoopTurnMs: number;
  turnGapMs: number;
  /** every contender's loop runs this long at once before the first turn, so that none is measured cold */
  turnWarmupMs: number;
}

export const usage = `Usage: npm run bench -- [options]

  --quick               a smoke run in about a minute (CI): a few cases, short windows, one round
  --scenario a,b        ${Object.keys(scenarios).join(', ')}, or all
                        (default: all; memory, cacheScale, sessions and watchRestore run only when named)
  --contenders a,b      ${contenderIds.join(', ')} (nzc, native for short; default: all but baseline)
  --baseline REV        also run our client as it is at commit REV (the baseline contender), for an A/B
  --rounds N            rounds; medians and min-max are over them (default 3, quick 1)
  --duration MS         measured time per cell (default 1000, quick 500; session setup 5000)
  --in-flight 1,16,...  depths of the throughput scenarios (default 1,16,256,1000)
  --sizes 1000,...      sizes of the scale scenarios (default cacheScale 10k,100k,1M; sessions 1k,10k;
                        watchRestore 10k,100k)
  --connect host:port   use this server instead of starting an embedded one
  --zk-version V        the embedded server's ZooKeeper release (default @zkwire/testing's; debian: 3.8.0)
  --out DIR             where each run's folder goes (default apps/bench/results)
  --write-results       also write the report to apps/bench/RESULTS.md, with the machine and the commit
  -h, --help
`;

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

const list = (value: string | undefined) => value?.split(',').flatMap((s) => s.trim() || []);

/** Parses argv (without node and the script); throws a readable error on a bad flag. */
export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      scenario: { type: 'string' },
      contenders: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      'in-flight': { type: 'string' },
      sizes: { type: 'string' },
      connect: { type: 'string' },
      'zk-version': { type: 'string' },
      out: { type: 'string' },
      baseline: { type: 'string' },
      'write-results': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const quick = values.quick === true;
  const named = list(values.scenario)?.flatMap((n) => (n === 'all' ? defaultScenarios : [n]));
  const names = named ?? (quick ? quickScenarios : defaultScenarios);
  const unknown = names.find((name) => !scenarios[name]);
  if (unknown)
    throw new Error(`unknown scenario "${unknown}"; known: ${Object.keys(scenarios).join(', ')}, all`);
  const namedContenders = list(values.contenders) ?? contenderIds.filter((id) => id !== 'baseline');
  const contenders = [...namedContenders, ...(values.baseline ? ['baseline'] : [])].map((name) => {
    const id = (aliases[name] ?? name) as ContenderId;
    if (contenderIds.includes(id)) return id;
    throw new Error(`unknown contender "${name}"; known: ${contenderIds.join(', ')} (or nzc, native)`);
  });
  if (contenders.includes('baseline') && !values.baseline)
    throw new Error('the baseline contender needs --baseline REV: the commit to measure against');
  if (values['zk-version'] && values.connect)
    throw new Error('--zk-version chooses the embedded server: not with --connect');
  const inFlight = list(values['in-flight'])?.map((v) => integer('in-flight', v, 1));
  const sizes = list(values.sizes)?.map((v) => integer('sizes', v, 1));
  const durationMs = integer('duration', values.duration, quick ? 500 : 1_000);
  return {
    quick,
    scenarios: [...new Set(names)],
    contenders: [...new Set(contenders)],
    rounds: integer('rounds', values.rounds, quick ? 1 : 3),
    durationMs,
    warmupMs: quick ? 250 : 300,
    sessionDurationMs: values.duration ? durationMs : quick ? 500 : 5_000,
    ...(values.duration ? { scaleWindowMs: durationMs } : {}),
    ...(inFlight ? { inFlight } : {}),
    ...(sizes ? { sizes } : {}),
    dataSize: 100,
    ...(values.connect ? { connect: values.connect } : {}),
    ...(values['zk-version'] ? { zkVersion: values['zk-version'] } : {}),
    ...(values.out ? { outDir: values.out } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    writeResults: values['write-results'] === true,
    help: values.help === true,
    turnMs: 400,
    openLoopTurnMs: quick ? 400 : 2_000,
    turnGapMs: 250,
    turnWarmupMs: quick ? 200 : 5_000,
  };
}
