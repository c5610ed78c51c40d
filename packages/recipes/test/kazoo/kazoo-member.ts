/**
 * Runs a kazoo SetPartitioner member (partition-member.py, Debian's python3-kazoo) as a child process and
 * reads what it reports; or a Node member (node-member-child.ts) speaking the same lines, to kill it alike. Each member is bounded: it is killed when the test closes it, and SIGKILL is what
 * the "member dies" tests send.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./partition-member.py', import.meta.url));
const NODE_SCRIPT = fileURLToPath(new URL('./node-member-child.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const RECIPES_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** One line the member printed. */
export interface KazooMemberEvent {
  event: 'joined' | 'acquired' | 'release' | 'failed' | 'finished';
  items?: string[];
  identifier?: string;
  session?: string;
}

let python: string | undefined;

/** The first Python 3 that can import kazoo; fails with what to install when none can. */
export function kazooPython(): string {
  if (python !== undefined) return python;
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(candidate, ['-c', 'import kazoo'], { stdio: 'ignore' });
      python = candidate;
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error("no python3 with kazoo: install Debian's python3-kazoo (scripts/setup.sh does)");
}

/** A running kazoo member. */
export class KazooMember {
  readonly events: KazooMemberEvent[] = [];
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  #stderr = '';
  #finishing = false;

  constructor(options: {
    connectString: string;
    path: string;
    identifier: string;
    items: readonly string[];
    timeBoundaryS: number;
    sessionTimeoutS: number;
    /** `node`: a Node SetPartitioner in a child process (node-member-child.ts), same protocol. */
    runtime?: 'kazoo' | 'node';
  }) {
    const node = options.runtime === 'node';
    this.#child = spawn(
      node ? TSX : kazooPython(),
      [
        node ? NODE_SCRIPT : SCRIPT,
        options.connectString,
        options.path,
        options.identifier,
        String(options.timeBoundaryS),
        String(options.sessionTimeoutS),
        ...options.items,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'], cwd: RECIPES_DIR },
    );
    let buffered = '';
    this.#child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end).trim();
        buffered = buffered.slice(end + 1);
        if (line.length > 0) this.events.push(JSON.parse(line) as KazooMemberEvent);
      }
    });
    this.#child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4_000);
    });
    this.#exited = new Promise((resolve) => this.#child.once('exit', () => resolve()));
  }

  /** What the member wrote to stderr lately (for failure messages). */
  get stderr(): string {
    return this.#stderr;
  }

  /** Throws, with what it printed to stderr, when the member exited without being asked to. */
  assertRunning(): void {
    const { exitCode, signalCode } = this.#child;
    if (this.#finishing || (exitCode === null && signalCode === null)) return;
    throw new Error(`the kazoo member exited (${exitCode ?? signalCode}):\n${this.#stderr}`);
  }

  /** The member's session id (hex), once it joined. */
  get session(): string | undefined {
    return this.events.find((event) => event.event === 'joined')?.session;
  }

  /** The share it reported last, if its last report was an acquisition; undefined otherwise. */
  get acquired(): string[] | undefined {
    const last = this.events.at(-1);
    return last?.event === 'acquired' ? last.items : undefined;
  }

  /** Asks it to finish (release, leave the party) and waits for it to exit. */
  async finish(): Promise<void> {
    this.#finishing = true;
    this.#child.stdin?.end('finish\n');
    await this.#exited;
  }

  /** Kills it at once: its session lives on until the server expires it. */
  async kill(): Promise<void> {
    this.#finishing = true;
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }
}
