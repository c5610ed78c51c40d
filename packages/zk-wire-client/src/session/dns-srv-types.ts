/**
 * What the session's DNS SRV discovery works with, checked from the options by dns-srv-options.ts: declared
 * apart so that the discovery (dns-srv.ts) and the hosts (hosts.ts) stand beside the option checks, not on them.
 */
import type { Logger } from '../util/types.js';

/** What the session's DNS SRV discovery works with. */
export interface DnsSrvSettings {
  /** The SRV name of the connect string. */
  readonly srvName: string;
  /** The pause between lookups after the first; 0: no refresh. */
  readonly refreshMs: number;
  /** The DNS servers to ask (`ip` or `ip:port`); undefined: the system's. */
  readonly servers: readonly string[] | undefined;
  /** The client's `logger`: where changed answers and failed refreshes are told. */
  readonly logger: Logger | undefined;
}
