/**
 * While a session sits on a read-only server, look for a read-write one (wire-protocol.md §2.7, Java's
 * `ClientCnxn.pingRwServer`): ask the other hosts, one per probe and round-robin, the four-letter word `isro`
 * on a separate short connection; `rw` means the host serves writes, and the session moves there. The pause
 * between probes starts at 100 ms and doubles up to 60 s, so a long partition costs one tiny connection a
 * minute.
 */
import { Buffer } from 'node:buffer';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { tlsConnectOptions } from '../security/tls-options.js';
import type { ClientOptions, HostAddress } from '../util/types.js';

/** First pause between probes (Java's minPingRwTimeout). */
export const MIN_PROBE_INTERVAL_MS = 100;
/** Longest pause between probes (Java's maxPingRwTimeout). */
export const MAX_PROBE_INTERVAL_MS = 60_000;
/** How long one probe waits for its answer (Java's socket timeout for the ping). */
export const PROBE_TIMEOUT_MS = 1000;

/** What a probe needs to know. */
export interface ReadOnlyProbeOptions {
  /** The session's host list. */
  hosts: readonly HostAddress[];
  /** The index (in `hosts`) of the read-only server the session is on: never probed. */
  current: number;
  /** How to open sockets: the same factory and TLS options as the session. */
  connect: Pick<ClientOptions, 'tls' | 'connectionFactory'>;
  /** Called once, with the index of the first host that answers `rw`. */
  onReadWrite: (index: number) => void;
}

/** Probes the other hosts until one serves writes or {@link ReadOnlyProbe.stop} is called. */
export class ReadOnlyProbe {
  private intervalMs = MIN_PROBE_INTERVAL_MS;
  private next: number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private socket: Socket | undefined;

  constructor(private readonly options: ReadOnlyProbeOptions) {
    this.next = options.current;
  }

  /** Starts probing (nothing to do with a single host). */
  start(): void {
    if (this.options.hosts.length > 1) this.schedule();
  }

  /** Stops probing and drops a probe in progress. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.socket?.destroy();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.probe(), this.intervalMs);
    this.timer.unref();
    this.intervalMs = Math.min(this.intervalMs * 2, MAX_PROBE_INTERVAL_MS);
  }

  private async probe(): Promise<void> {
    const { hosts, current } = this.options;
    this.next = (this.next + 1) % hosts.length;
    if (this.next === current) this.next = (this.next + 1) % hosts.length;
    const index = this.next;
    const answer = await this.ask(hosts[index]!);
    if (this.stopped) return;
    if (answer === 'rw') {
      this.stopped = true;
      this.options.onReadWrite(index);
      return;
    }
    this.schedule();
  }

  /** Sends `isro` and resolves with the trimmed answer, or undefined (no answer, refused, timed out). */
  private ask(address: HostAddress): Promise<string | undefined> {
    return new Promise((resolve) => {
      let socket: Socket;
      try {
        socket = openSocket(address, this.options.connect);
      } catch {
        resolve(undefined);
        return;
      }
      this.socket = socket;
      const chunks: Buffer[] = [];
      let settled = false;
      const done = (answered: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        if (this.socket === socket) this.socket = undefined;
        const text = Buffer.concat(chunks).toString('utf8').trim();
        resolve(answered && text !== '' ? text : undefined);
      };
      const timer = setTimeout(() => done(false), PROBE_TIMEOUT_MS);
      timer.unref();
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => done(true));
      socket.on('close', () => done(true));
      // A dead host is the common case during a partition: an error is just "no answer".
      socket.on('error', () => done(false));
      socket.write('isro');
    });
  }
}

function openSocket(address: HostAddress, options: Pick<ClientOptions, 'tls' | 'connectionFactory'>): Socket {
  // The same path as a session's connection: a factory's socket (a proxy in tests), TLS inside it if set.
  const inner = options.connectionFactory?.(address.host, address.port);
  if (options.tls) {
    const base = tlsConnectOptions(options.tls, address.host, address.port);
    return tls.connect(inner ? { ...base, socket: inner } : base);
  }
  return inner ?? net.connect({ host: address.host, port: address.port });
}
