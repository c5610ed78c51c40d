/**
 * A real DNS server for tests: Debian's dnsmasq on 127.0.0.1, serving the SRV records a test gives it and
 * nothing else (no upstream servers, no /etc/hosts). Names under its local domain that have no records are
 * answered NXDOMAIN (a resolver's ENOTFOUND); names outside it are refused.
 *
 * dnsmasq re-reads only its hosts files on SIGHUP, never `--srv-host` options, so {@link Dnsmasq.setRecords}
 * restarts it on the same port: while it restarts, lookups fail as they would during any DNS outage.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { MissingComponentError } from '../find-java.js';
import { freePort } from '../free-port.js';
import { killOnExit, watchdogCommand } from '../process-cleanup.js';

/** One SRV record: `name` (e.g. `_zookeeper._tcp.zkwire.test`) points at `target:port`. */
export interface SrvRecordSpec {
  readonly name: string;
  /** The target host name; an IPv4 literal such as `127.0.0.1` is served as a name and connects as such. */
  readonly target: string;
  readonly port: number;
  /** RFC 2782 priority (lower is tried first). Default 0. */
  readonly priority?: number;
  /** RFC 2782 weight among records of one priority. Default 0. */
  readonly weight?: number;
}

export interface StartDnsmasqOptions {
  /** The SRV records served at start. */
  readonly records: readonly SrvRecordSpec[];
  /** The domain answered from these records only (NXDOMAIN for names without any). Default `zkwire.test`. */
  readonly domain?: string;
}

/** A running dnsmasq. */
export interface Dnsmasq extends AsyncDisposable {
  /** The address to give a resolver, `127.0.0.1:<port>` (node:dns `setServers`, the client's `dnsServers`). */
  readonly server: string;
  readonly port: number;
  /** The records served now. */
  readonly records: readonly SrvRecordSpec[];
  /** Serves `records` instead of the current ones (dnsmasq restarted on the same port). */
  setRecords(records: readonly SrvRecordSpec[]): Promise<void>;
  /** Stops dnsmasq. Idempotent. */
  stop(): Promise<void>;
}

function findDnsmasq(): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, 'dnsmasq');
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new MissingComponentError('DNS server (`dnsmasq`)', 'dnsmasq-base');
}

function checkRecord(record: SrvRecordSpec): void {
  const u16 = (value: number | undefined, what: string, min: number) => {
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > 65535))
      throw new RangeError(`startDnsmasq: ${what} of ${record.name} must be an integer ${min}-65535`);
  };
  if (!/^[\w.-]+$/.test(record.name)) throw new RangeError(`startDnsmasq: bad record name ${record.name}`);
  if (!/^[\w.-]+$/.test(record.target)) throw new RangeError(`startDnsmasq: bad target ${record.target}`);
  u16(record.port, 'port', 1);
  u16(record.priority, 'priority', 0);
  u16(record.weight, 'weight', 0);
}

function dnsmasqArgs(port: number, domain: string, records: readonly SrvRecordSpec[]): string[] {
  return [
    '--no-daemon',
    '--no-resolv',
    '--no-hosts',
    '--no-poll',
    `--port=${port}`,
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    '--log-facility=-',
    `--local=/${domain}/`,
    ...records.map((r) => `--srv-host=${r.name},${r.target},${r.port},${r.priority ?? 0},${r.weight ?? 0}`),
  ];
}

/** Resolves once dnsmasq answers a query (any answer, NXDOMAIN included); rejects if it exits first. */
async function answering(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const resolver = new Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  while (!hasExited()) {
    try {
      await resolver.resolveSrv('_probe._tcp.invalid');
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Any DNS answer means it listens; no answer (a timeout, a refused socket) means not yet.
      if (code !== 'ETIMEOUT' && code !== 'ECONNREFUSED') return;
    }
  }
  // Give the last of its stderr (the reason) a moment to arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  throw new Error(
    `dnsmasq exited (${child.signalCode ?? child.exitCode}) before answering: ${output().trim()}`,
  );
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts dnsmasq on 127.0.0.1 on a free port, serving `records`. Throws MissingComponentError (naming the
 * Debian package `dnsmasq-base`) when dnsmasq is not installed.
 */
export async function startDnsmasq(options: StartDnsmasqOptions): Promise<Dnsmasq> {
  const binary = findDnsmasq();
  const domain = options.domain ?? 'zkwire.test';
  let records = [...options.records];
  for (const record of records) checkRecord(record);

  const launch = async (port: number): Promise<ChildProcess> => {
    const { file, args } = watchdogCommand(binary, dnsmasqArgs(port, domain, records));
    const child = spawn(file, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    killOnExit(child);
    let output = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (output.length < 16_384) output += chunk;
    });
    try {
      await answering(child, port, () => output);
    } catch (error) {
      await stopChild(child);
      throw error;
    }
    return child;
  };

  // A port another process took between freePort and the bind: try another (at start only).
  let port = 0;
  let child: ChildProcess | undefined;
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }

  let running: ChildProcess | undefined = child;
  let stopped = false;
  const stop = async () => {
    stopped = true;
    const current = running;
    running = undefined;
    if (current !== undefined) await stopChild(current);
  };
  return {
    server: `127.0.0.1:${port}`,
    port,
    get records() {
      return records;
    },
    async setRecords(next) {
      if (stopped) throw new Error('startDnsmasq: setRecords after stop');
      for (const record of next) checkRecord(record);
      records = [...next];
      const current = running;
      running = undefined;
      if (current !== undefined) await stopChild(current);
      // The old process has exited, so its sockets are closed; a bind that still fails is retried.
      for (let attempt = 1; ; attempt++) {
        try {
          running = await launch(port);
          return;
        } catch (error) {
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        }
      }
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
