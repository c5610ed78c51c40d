/**
 * A session's options, checked once when the client is made (bad ones are refused with InvalidArgumentError
 * before anything is sent) and turned into what the session works with.
 */
import type { Buffer } from 'node:buffer';
import { concealCredentials, concealProperty } from '../security/conceal.js';
import { validateSaslOptions } from '../security/sasl-options.js';
import { validateTlsOption } from '../security/tls-options.js';
import type { ConnectionOptions } from '../transport/connection.js';
import { readPacingSettings } from '../transport/read-pacing.js';
import { aclArg } from '../util/args.js';
import { parseClientConnectString } from '../util/connect-string.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { Chroot } from '../util/paths.js';
import { shuffled } from '../util/shuffle.js';
import type { ACL, ClientOptions, HostAddress } from '../util/types.js';
import { dnsSrvSettings } from './dns-srv-options.js';
import type { DnsSrvSettings } from './dns-srv-types.js';
import { sessionCredentials } from './handoff.js';

/** The checked session options: the timeout to ask for and the session to reattach to, if any. */
export interface SessionStart {
  requestedTimeoutMs: number;
  session: { id: bigint; password: Buffer } | undefined;
}

/**
 * Checks `sessionTimeoutMs` and `session` (refused with InvalidArgumentError before anything is sent). A
 * resumed hand-off asks for its own timeout unless `sessionTimeoutMs` says otherwise.
 */
export function sessionStart(options: ClientOptions): SessionStart {
  const given = sessionCredentials(options.session);
  const timeout = options.sessionTimeoutMs ?? given?.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeout) || timeout <= 0) {
    throw new InvalidArgumentError('sessionTimeoutMs', `must be a positive integer, got ${String(timeout)}`);
  }
  const session = given === undefined ? undefined : { id: given.id, password: given.password };
  return { requestedTimeoutMs: timeout, session };
}

/** Curator's connection timeout: the default bound of a wait for the first connection. */
export const DEFAULT_CONNECT_WAIT_MS = 15_000;

/**
 * A timeout option in ms: an integer ≥ 0 (> 0 unless `zeroAllowed`), or undefined for the default. Refused
 * with InvalidArgumentError before anything is sent.
 */
export function timeoutOption(
  name: string,
  value: number | undefined,
  zeroAllowed: boolean,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < (zeroAllowed ? 0 : 1)) {
    const range = zeroAllowed ? 'an integer ≥ 0' : 'a positive integer';
    throw new InvalidArgumentError(name, `must be ${range}, got ${String(value)}`);
  }
  return value;
}

/** Everything the session takes from its options. */
export interface SessionSettings {
  /** The options, their credentials kept out of inspect/log/JSON output. */
  options: ClientOptions;
  chroot: Chroot;
  /** The hosts, shuffled once (none for a `dns-srv://` connect string: `dnsSrv` finds them). */
  hosts: HostAddress[];
  /** A `dns-srv://` connect string's lookups (`dnsSrvRefreshMs`, `dnsServers`, checked). */
  dnsSrv: DnsSrvSettings | undefined;
  requestedTimeoutMs: number;
  /** The session to reattach to (`session`), if any. */
  session: SessionStart['session'];
  /** The bound of a wait for the first connection when the call gives none (0 = none). */
  connectWaitMs: number;
  /** The bound of close()'s wait for the closeSession reply; undefined: from the session timeout. */
  closeTimeoutMs: number | undefined;
  /** The ACL of creates that name none (`defaultAcl`, checked); undefined means open. */
  defaultAcl: ACL[] | undefined;
  /** `failFast`: before the first session, give up once every host failed. */
  failFast: boolean;
  /** `ensureChroot`: create the chroot on connect. */
  ensureChroot: boolean;
  connection: ConnectionOptions;
}

/** A boolean option: true, false or undefined (false). */
function flagOption(name: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean')
    throw new InvalidArgumentError(name, `must be a boolean, got ${typeof value}`);
  return value;
}

/** `serverVersion`: a release number `x.y.z` (a suffix such as `-beta` is allowed), or undefined. */
function serverVersionOption(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !/^\d+\.\d+\.\d+(?:[-.+][\w.-]*)?$/.test(value)) {
    throw new InvalidArgumentError(
      'serverVersion',
      `must be a version such as '3.9.5', got ${String(value)}`,
    );
  }
}

/** Checks `options` and derives the session's settings from them. */
export function sessionSettings(options: ClientOptions): SessionSettings {
  const concealed = concealCredentials(options);
  // The session's password (a hand-off's or a reattach's) stays out of inspect/log/JSON output too.
  if (typeof options.session === 'object' && options.session !== null) {
    concealed.session = concealProperty({ ...options.session }, 'password');
  }
  const parsed = parseClientConnectString(options.connectString);
  const start = sessionStart(options);
  validateTlsOption(options.tls);
  validateSaslOptions(options.sasl);
  serverVersionOption(options.serverVersion);
  const { tls, connectionFactory, maxFrameLength } = concealed;
  return {
    options: concealed,
    chroot: parsed.chroot,
    hosts: shuffled(parsed.hosts),
    dnsSrv: dnsSrvSettings(options, parsed.srvName),
    requestedTimeoutMs: start.requestedTimeoutMs,
    session: start.session,
    connectWaitMs: timeoutOption('connectWaitMs', options.connectWaitMs, true) ?? DEFAULT_CONNECT_WAIT_MS,
    closeTimeoutMs: timeoutOption('closeTimeoutMs', options.closeTimeoutMs, false),
    defaultAcl:
      options.defaultAcl === undefined
        ? undefined
        : aclArg(options.defaultAcl, 'createClient', undefined, 'defaultAcl'),
    failFast: flagOption('failFast', options.failFast),
    ensureChroot: flagOption('ensureChroot', options.ensureChroot),
    connection: {
      tls,
      connectionFactory,
      maxFrameLength,
      readPacing: readPacingSettings(options.readCoalescing),
    },
  };
}
