/**
 * The error of a `dns-srv://` connect string whose first lookup gave no server: the client cannot start, as
 * the Java client's `DnsSrvHostProvider` refuses to be built (an IllegalArgumentException there).
 */
import { ZooKeeperError } from '../util/errors.js';

/**
 * Why the lookup gave no server: `no-records` (the name does not exist or has no SRV records, or none with
 * a usable target), or `lookup-failed` (no DNS server answered, or one answered with an error).
 */
export type DnsSrvLookupFailure = 'no-records' | 'lookup-failed';

/**
 * The SRV lookup of a `dns-srv://` connect string gave no server at connect: the client ends with it
 * (`connect()` and every call reject with it). `code` is 'DNSSRVLOOKUP'; `retryable` is false.
 */
export class DnsSrvLookupError extends ZooKeeperError {
  /** The DNS name looked up. */
  readonly srvName: string;
  readonly reason: DnsSrvLookupFailure;
  /** node:dns's code (`ENOTFOUND`, `ENODATA`, `ETIMEOUT`, `ESERVFAIL`, ...), when the resolver gave one. */
  readonly dnsCode: string | undefined;
  constructor(srvName: string, reason: DnsSrvLookupFailure, dnsCode: string | undefined, cause?: unknown) {
    const why =
      reason === 'no-records'
        ? 'no SRV records with a server were found'
        : `the lookup failed${dnsCode === undefined ? '' : ` (${dnsCode})`}`;
    super('DNSSRVLOOKUP', -8, `DNS SRV lookup of ${srvName}: ${why}`, { cause }, false);
    this.srvName = srvName;
    this.reason = reason;
    this.dnsCode = dnsCode;
  }
}

/** True when `error` is a {@link DnsSrvLookupError} (also from another copy of this package). */
export function isDnsSrvLookupError(error: unknown): error is DnsSrvLookupError {
  return ZooKeeperError.isInstance(error) && error.code === 'DNSSRVLOOKUP';
}
