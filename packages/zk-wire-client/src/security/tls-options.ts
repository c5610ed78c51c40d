/**
 * The `tls` client option: checked when the client is created (bad options are refused before anything is
 * sent), and turned into `node:tls` connect options for each server of the connect string.
 */
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { InvalidArgumentError } from '../util/errors.js';

/** The `tls` option as users give it: `true` (system CAs, no client certificate) or `node:tls` options. */
export type TlsOption = ConnectionOptions | boolean | undefined;

const PEM_OPTIONS = ['ca', 'cert', 'key'] as const;

/*
 * A common mistake is `ca: '/etc/zk/ca.pem'`: node then fails deep in OpenSSL with "no start line". A string
 * without a PEM header cannot be PEM, so it is refused with a hint. Buffers may be DER or PEM: left to node.
 */
function checkPem(name: string, value: unknown): void {
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item === undefined || item === null) continue;
    if (typeof item === 'string') {
      if (!item.includes('-----BEGIN')) {
        throw new InvalidArgumentError(
          `tls.${name}`,
          'a string must hold PEM text; to use a file, pass its contents (fs.readFileSync(file))',
        );
      }
    } else if (
      !(item instanceof Uint8Array) &&
      !(name === 'key' && typeof item === 'object' && 'pem' in item)
    ) {
      throw new InvalidArgumentError(`tls.${name}`, 'must be PEM text, a Buffer, or an array of them');
    }
  }
}

/**
 * Refuses a `tls` option that cannot work, with an {@link InvalidArgumentError} that names the field and never
 * quotes a key or certificate. Accepts undefined, booleans and `node:tls` connection options.
 */
export function validateTlsOption(tls: unknown): asserts tls is TlsOption {
  if (tls === undefined || typeof tls === 'boolean') return;
  if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
    throw new InvalidArgumentError('tls', 'must be true, false or node:tls connection options');
  }
  const options = tls as ConnectionOptions;
  for (const field of ['host', 'port', 'path', 'socket'] as const) {
    if (options[field] !== undefined) {
      throw new InvalidArgumentError(`tls.${field}`, 'is not allowed: servers come from connectString');
    }
  }
  for (const name of PEM_OPTIONS) checkPem(name, options[name]);
  const hasPfx = options.pfx !== undefined;
  if (options.cert !== undefined && options.key === undefined && !hasPfx) {
    throw new InvalidArgumentError(
      'tls.key',
      'a client certificate (tls.cert) needs its private key (tls.key)',
    );
  }
  if (options.key !== undefined && options.cert === undefined && !hasPfx) {
    throw new InvalidArgumentError(
      'tls.cert',
      'a private key (tls.key) needs its client certificate (tls.cert)',
    );
  }
  if (
    options.servername !== undefined &&
    (typeof options.servername !== 'string' || isIP(options.servername))
  ) {
    throw new InvalidArgumentError(
      'tls.servername',
      'must be a DNS host name (an IP address is checked as the host)',
    );
  }
}

/**
 * The `node:tls` connect options for one server. Server certificates are verified (node's default, kept unless
 * the user sets `rejectUnauthorized: false`) against the host name of the connect string, or against
 * `servername` when given; TLS 1.2 is the floor (ZooKeeper 3.5+ speaks 1.2, and 1.3 when configured).
 */
export function tlsConnectOptions(
  tls: ConnectionOptions | true,
  host: string,
  port: number,
): ConnectionOptions {
  const options: ConnectionOptions = tls === true ? {} : tls;
  // SNI may not carry an IP address (RFC 6066); for an IP, node checks the certificate's IP SANs instead.
  const servername = options.servername ?? (isIP(host) ? undefined : host);
  return {
    minVersion: 'TLSv1.2',
    ...options,
    ...(servername === undefined ? {} : { servername }),
    host,
    port,
  };
}
