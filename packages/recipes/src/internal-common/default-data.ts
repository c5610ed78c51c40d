/**
 * Curator's default node data (curator/conventions.md §1.2): the local host's address as text, what Java's
 * `InetAddress.getLocalHost().getHostAddress()` gives, or empty when the host name does not resolve.
 */
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';

let cached: Promise<Uint8Array> | undefined;

/** The local address as ASCII bytes, resolved once per process. */
export function localAddressData(): Promise<Uint8Array> {
  cached ??= lookup(hostname()).then(
    (result) => new Uint8Array(Buffer.from(result.address, 'latin1')),
    () => new Uint8Array(0),
  );
  return cached;
}

/** User-supplied node data as bytes (strings as UTF-8), or the default data when none was given. */
export async function nodeDataOf(data: Uint8Array | string | undefined): Promise<Uint8Array> {
  if (data === undefined) return localAddressData();
  return typeof data === 'string' ? new Uint8Array(Buffer.from(data, 'utf8')) : data;
}
