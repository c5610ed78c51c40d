/**
 * Connection options: the global flags of `zkwire` and the environment variables behind them. Flags win
 * over the environment. Secrets (passwords, digest credentials, key passphrases) are best given through the
 * environment, since flags are visible to every user of the machine in `ps`; the CLI never prints them.
 */
import { readFileSync } from 'node:fs';
import type { ClientOptions } from '@zkwire/zk-wire-client';
import { UsageError } from './errors.js';

/** The environment variables `zkwire` reads, and the flag each stands for. */
export const ENVIRONMENT = {
  ZKWIRE_SERVER: '--server',
  ZKWIRE_AUTH: '--auth (scheme:credentials, e.g. digest:bob:secret)',
  ZKWIRE_SASL_USER: '--sasl-user',
  ZKWIRE_SASL_PASSWORD: '--sasl-password',
  ZKWIRE_SASL_MECHANISM: '--sasl-mechanism',
  ZKWIRE_TLS_CA: '--tls-ca',
  ZKWIRE_TLS_CERT: '--tls-cert',
  ZKWIRE_TLS_KEY: '--tls-key',
  ZKWIRE_TLS_PFX: '--tls-pfx',
  ZKWIRE_TLS_PASSPHRASE: '--tls-passphrase',
  ZKWIRE_TIMEOUT: '--timeout',
  ZKWIRE_HISTORY: 'the REPL history file (default ~/.zkwire_history; empty: none)',
} as const;

/** The global flags as commander hands them over (all optional strings or booleans). */
export interface GlobalFlags {
  server?: string;
  timeout?: string;
  connectTimeout?: string;
  sessionTimeout?: string;
  readOnly?: boolean;
  auth?: string[];
  saslUser?: string;
  saslPassword?: string;
  saslMechanism?: string;
  saslService?: string;
  saslHost?: string;
  tls?: boolean;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsPfx?: string;
  tlsPassphrase?: string;
  tlsServername?: string;
  tlsInsecure?: boolean;
  json?: boolean;
  color?: boolean;
  /** Commands read from stdin stop at the first one that fails. */
  stopOnError?: boolean;
}

/** Everything needed to (re)connect: the client options and how long to wait. */
export interface ConnectionSettings {
  /** Client options without the connect string (`connect host:port` in the REPL swaps it). */
  client: Omit<ClientOptions, 'connectString'>;
  /** The connect string, or undefined when neither `-s` nor ZKWIRE_SERVER gave one. */
  connectString: string | undefined;
  /** Per-call timeout in ms. */
  requestTimeoutMs: number;
  /** How long to wait for the first connection. */
  connectTimeoutMs: number;
}

/** The default connect string when neither a flag nor the environment gives one (zkCli's default). */
export const DEFAULT_SERVER = 'localhost:2181';

/** Reads the flags and the environment into connection settings; refuses bad values with a UsageError. */
export function connectionSettings(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
): ConnectionSettings {
  const requestTimeoutMs = positiveInt('--timeout', flags.timeout ?? env.ZKWIRE_TIMEOUT ?? '10000');
  const client: Omit<ClientOptions, 'connectString'> = {
    sessionTimeoutMs: positiveInt('--session-timeout', flags.sessionTimeout ?? '30000'),
    requestTimeoutMs,
  };
  if (flags.readOnly) client.canBeReadOnly = true;

  const auth = [...(flags.auth ?? [])];
  if (auth.length === 0 && env.ZKWIRE_AUTH) auth.push(env.ZKWIRE_AUTH);
  if (auth.length > 0) client.auth = auth.map(parseAuth);

  const saslUser = flags.saslUser ?? env.ZKWIRE_SASL_USER;
  const saslPassword = flags.saslPassword ?? env.ZKWIRE_SASL_PASSWORD;
  if (saslUser !== undefined || saslPassword !== undefined) {
    if (!saslUser || saslPassword === undefined) {
      throw new UsageError('SASL needs both a user (--sasl-user) and a password (ZKWIRE_SASL_PASSWORD)');
    }
    client.sasl = {
      mechanism: flags.saslMechanism ?? env.ZKWIRE_SASL_MECHANISM ?? 'DIGEST-MD5',
      username: saslUser,
      password: saslPassword,
      ...(flags.saslService ? { serviceName: flags.saslService } : {}),
      ...(flags.saslHost ? { hostname: flags.saslHost } : {}),
    };
  }

  const tls = tlsOptions(flags, env);
  if (tls !== undefined) client.tls = tls;

  return {
    client,
    connectString: flags.server ?? env.ZKWIRE_SERVER,
    requestTimeoutMs,
    connectTimeoutMs: positiveInt('--connect-timeout', flags.connectTimeout ?? '15000'),
  };
}

/** `scheme:credentials`, split at the first colon (`digest:bob:secret` → digest, `bob:secret`). */
export function parseAuth(text: string): { scheme: string; credentials: string } {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError('--auth takes scheme:credentials, e.g. digest:user:password');
  return { scheme: text.slice(0, colon), credentials: text.slice(colon + 1) };
}

function tlsOptions(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
): ClientOptions['tls'] | undefined {
  const files = {
    ca: flags.tlsCa ?? env.ZKWIRE_TLS_CA,
    cert: flags.tlsCert ?? env.ZKWIRE_TLS_CERT,
    key: flags.tlsKey ?? env.ZKWIRE_TLS_KEY,
    pfx: flags.tlsPfx ?? env.ZKWIRE_TLS_PFX,
  };
  const passphrase = flags.tlsPassphrase ?? env.ZKWIRE_TLS_PASSPHRASE;
  const anyFile = Object.values(files).some((file) => file !== undefined);
  if (!flags.tls && !anyFile && !flags.tlsServername && !flags.tlsInsecure) return undefined;
  const options: Exclude<ClientOptions['tls'], boolean | undefined> = {};
  for (const [name, file] of Object.entries(files)) {
    if (file !== undefined) (options as Record<string, Buffer>)[name] = readFlagFile(`--tls-${name}`, file);
  }
  if (passphrase !== undefined) options.passphrase = passphrase;
  if (flags.tlsServername) options.servername = flags.tlsServername;
  // For test servers with self-made certificates only: the server is then not verified at all.
  if (flags.tlsInsecure) options.rejectUnauthorized = false;
  return Object.keys(options).length === 0 ? true : options;
}

function readFlagFile(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}

/** A positive integer flag value, or a UsageError naming the flag. */
export function positiveInt(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new UsageError(`${flag} must be a positive integer, got "${text}"`);
  }
  return value;
}

/** A non-negative integer (versions, depths), or a UsageError naming the flag. */
export function integerFlag(flag: string, text: string, min = 0): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${flag} must be an integer >= ${min}, got "${text}"`);
  }
  return value;
}
