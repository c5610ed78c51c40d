/** `npm run soak -- --minutes 5 --seed 42 --node 2 --java 2 --session-timeout 5000 --logs DIR` */

export interface SoakOptions {
  minutes: number;
  seed: number;
  nodeWorkers: number;
  javaWorkers: number;
  sessionTimeoutMs: number;
  /** Where the event logs go (kept after the run); default a fresh temp dir. */
  logs: string | undefined;
}

export class SoakUsageError extends Error {
  override name = 'SoakUsageError';
}

const FLAGS = {
  '--minutes': 'minutes',
  '--seed': 'seed',
  '--node': 'nodeWorkers',
  '--java': 'javaWorkers',
  '--session-timeout': 'sessionTimeoutMs',
  '--logs': 'logs',
} as const;

export function parseOptions(argv: readonly string[], randomSeed: () => number): SoakOptions {
  const options: SoakOptions = {
    minutes: 5,
    seed: Number.NaN,
    nodeWorkers: 2,
    javaWorkers: 2,
    sessionTimeoutMs: 5_000,
    logs: undefined,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i] as string;
    const key = FLAGS[flag as keyof typeof FLAGS];
    const value = argv[i + 1];
    if (!key) throw new SoakUsageError(`unknown option ${flag} (known: ${Object.keys(FLAGS).join(', ')})`);
    if (value === undefined) throw new SoakUsageError(`${flag} needs a value`);
    i += 1;
    if (key === 'logs') {
      options.logs = value;
      continue;
    }
    const number = Number(value);
    const positive = key === 'minutes' ? number > 0 : key === 'seed' ? number >= 0 : number >= 0;
    if (!Number.isFinite(number) || !positive || (key !== 'minutes' && !Number.isInteger(number))) {
      throw new SoakUsageError(`${flag} ${value}: not a valid number`);
    }
    options[key] = number;
  }
  if (options.nodeWorkers + options.javaWorkers < 2) {
    throw new SoakUsageError('at least two worker processes are needed for contention');
  }
  if (options.sessionTimeoutMs < 4_000 || options.sessionTimeoutMs > 40_000) {
    throw new SoakUsageError("--session-timeout must be within the servers' 4000..40000 ms");
  }
  if (Number.isNaN(options.seed)) options.seed = randomSeed();
  return options;
}

/** The command that replays a run's schedule. */
export function replayCommand(options: SoakOptions): string {
  const extra = [
    options.nodeWorkers !== 2 ? ` --node ${options.nodeWorkers}` : '',
    options.javaWorkers !== 2 ? ` --java ${options.javaWorkers}` : '',
    options.sessionTimeoutMs !== 5_000 ? ` --session-timeout ${options.sessionTimeoutMs}` : '',
  ].join('');
  return `npm run soak -- --seed ${options.seed} --minutes ${options.minutes}${extra}`;
}
