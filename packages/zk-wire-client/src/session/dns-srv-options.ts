/**
 * The options of a `dns-srv://` connect string, checked when the client is made (refused with
 * InvalidArgumentError before anything is sent, also when the connect string is a host list, so that a bad
 * value in a shared configuration shows at once).
 */
import { Resolver } from 'node:dns';
import { InvalidArgumentError } from '../util/errors.js';
import { loggerArg } from '../util/logger.js';
import type { ClientOptions } from '../util/types.js';
import type { DnsSrvSettings } from './dns-srv-types.js';

/** As ZooKeeper 3.10's DnsSrvHostProvider: one lookup a minute. */
export const DEFAULT_DNS_SRV_REFRESH_MS = 60_000;

/** `dnsSrvRefreshMs`: an integer ≥ 0 (0 turns the refresh off), at most a day; default 60 000. */
function refreshOption(value: unknown): number {
  if (value === undefined) return DEFAULT_DNS_SRV_REFRESH_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 86_400_000) {
    throw new InvalidArgumentError(
      'dnsSrvRefreshMs',
      `must be an integer from 0 (no refresh) to 86400000, got ${String(value)}`,
    );
  }
  return value;
}

/** `dnsServers`: a non-empty array of IP addresses, each with an optional port, as node:dns `setServers`. */
function serversOption(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((s) => typeof s === 'string' && s !== '')) {
    throw new InvalidArgumentError(
      'dnsServers',
      "must be a non-empty array of addresses such as '10.0.0.2' or '127.0.0.1:5353'",
    );
  }
  const servers = [...value] as string[];
  for (const server of servers) {
    // node leaves the port unchecked: `[v6]:port` or `v4:port`.
    const port = /^\[.*\]:(\d+)$/.exec(server)?.[1] ?? /^[^:]*:(\d+)$/.exec(server)?.[1];
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
      throw new InvalidArgumentError(
        'dnsServers',
        `port ${port} of ${JSON.stringify(server)} is out of range`,
      );
    }
  }
  try {
    // node checks the addresses itself (IP literals only, IPv6 in brackets when a port follows).
    new Resolver().setServers(servers);
  } catch (error) {
    throw new InvalidArgumentError(
      'dnsServers',
      `${(error as Error).message} (IP addresses only, '[::1]:5353' for IPv6 with a port)`,
      { cause: error },
    );
  }
  return servers;
}

/** Checks `dnsSrvRefreshMs` and `dnsServers`; the settings when the connect string is `dns-srv://`. */
export function dnsSrvSettings(
  options: ClientOptions,
  srvName: string | undefined,
): DnsSrvSettings | undefined {
  const refreshMs = refreshOption(options.dnsSrvRefreshMs);
  const servers = serversOption(options.dnsServers);
  return srvName === undefined
    ? undefined
    : { srvName, refreshMs, servers, logger: loggerArg(options.logger) };
}
