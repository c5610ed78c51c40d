/**
 * Knowing the server's version, so that a feature the server lacks fails with a clear error instead of the
 * dropped connection an unknown opcode causes (wire-protocol.md §4.1). The version comes from the `srvr`
 * four-letter word (on the default whitelist) on a separate short connection, asked once per host and only
 * when a gated feature is first used.
 */
import { Buffer } from 'node:buffer';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import type { ClientOptions, HostAddress } from '../util/types.js';

/** A version as [major, minor, patch]. */
export type Version = readonly [number, number, number];

/** Reads `3.8.0` out of `Zookeeper version: 3.8.0-5a02a05..., built on ...`. */
export function parseServerVersion(srvr: string): string | undefined {
  const match = /Zookeeper version:\s*(\d+)\.(\d+)\.(\d+)/i.exec(srvr);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/** Splits `3.6.0` into numbers. */
export function toVersion(text: string): Version {
  const [a = 0, b = 0, c = 0] = text.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return [a, b, c];
}

/** True when `actual` ≥ `required`. */
export function atLeast(actual: string, required: string): boolean {
  const x = toVersion(actual);
  const y = toVersion(required);
  for (let i = 0; i < 3; i++) if (x[i]! !== y[i]!) return x[i]! > y[i]!;
  return true;
}

/** The first server version of each gated feature (wire-protocol.md §12). */
export const FEATURE_SINCE = {
  addWatch: '3.6.0',
  multiRead: '3.6.0',
  getEphemerals: '3.6.0',
  getAllChildrenNumber: '3.6.0',
  whoAmI: '3.7.0',
  removeWatches: '3.5.0',
  checkWatches: '3.5.0',
  /** removeWatches/checkWatches of the persistent or persistent-recursive type alone (ZOOKEEPER-4472). */
  persistentWatchType: '3.9.0',
  create2: '3.5.0',
  createContainer: '3.5.1',
  createTTL: '3.5.3',
} as const;

/** A feature of {@link FEATURE_SINCE}. */
export type GatedFeature = keyof typeof FEATURE_SINCE;

/**
 * Asks a server for its version with `srvr`; resolves undefined when it cannot tell (whitelist, timeout,
 * TLS-only port). Gated calls then go out, and an old server's -6 Unimplemented answer becomes
 * UnsupportedByServerError (ClientCore.gated), so the call still fails clearly and the session lives on.
 */
export function probeServerVersion(
  address: HostAddress,
  options: Pick<ClientOptions, 'tls' | 'connectionFactory'>,
  timeoutMs = 2000,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    let socket: Socket;
    try {
      if (options.connectionFactory) socket = options.connectionFactory(address.host, address.port);
      else if (options.tls)
        socket = tls.connect({
          ...(options.tls === true ? {} : options.tls),
          host: address.host,
          port: address.port,
        });
      else socket = net.connect({ host: address.host, port: address.port });
    } catch {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseServerVersion(Buffer.concat(chunks).toString('utf8')));
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
    socket.write('srvr');
  });
}

/** What is known of a host's version: being asked, or the answer (undefined when it could not be learnt). */
export type KnownVersion = { pending: true } | { pending: false; version: string | undefined };

/** Each host's version, asked once (the probe's promise is kept, so concurrent callers share one probe). */
export class ServerVersions {
  // Made on the first probe: a session asks only when a version-gated call comes (an empty Map is ~170 bytes).
  private byHost: Map<string, Promise<string | undefined>> | undefined;
  private answers: Map<string, KnownVersion> | undefined;

  /** What is known now of `address`'s version, without asking; undefined when it was never asked. */
  known(address: HostAddress): KnownVersion | undefined {
    return this.answers?.get(`${address.host}:${address.port}`);
  }

  /** The version of `address`, or undefined when it cannot be learnt. */
  of(
    address: HostAddress,
    options: Pick<ClientOptions, 'tls' | 'connectionFactory'>,
  ): Promise<string | undefined> {
    const key = `${address.host}:${address.port}`;
    this.byHost ??= new Map();
    let probe = this.byHost.get(key);
    if (probe === undefined) {
      const answers = (this.answers ??= new Map());
      probe = probeServerVersion(address, options);
      this.byHost.set(key, probe);
      answers.set(key, { pending: true });
      probe.then((version) => answers.set(key, { pending: false, version }));
    }
    return probe;
  }
}
