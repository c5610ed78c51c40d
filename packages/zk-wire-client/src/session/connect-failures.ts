/**
 * Why the servers of the connect string could not be reached: the last failure of each, kept until a
 * connection is made, so that a wait that gives up says which servers it tried and why each failed
 * (`127.0.0.1:2181 (connect ECONNREFUSED 127.0.0.1:2181)`) instead of only that it took too long.
 */
import { ConnectionLossError, messageOf, type ZooKeeperError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';

/** The words of a connection failure: the socket's, TLS's or the protocol's reason, not the wrapper's. */
export function failureReason(error: unknown): string {
  // A ConnectionLossError wraps what happened (the socket's error, a timeout): that is the reason.
  const reason = error instanceof ConnectionLossError && error.cause !== undefined ? error.cause : error;
  return messageOf(reason);
}

export class ConnectFailures {
  // Made on the first failure: most sessions never see one (an empty Map is ~170 bytes).
  private byHost: Map<string, unknown> | undefined;
  private last: ZooKeeperError | undefined;

  /** A connection to `host` failed (or ended before it was ready) with `error`. */
  record(host: HostAddress, error: ZooKeeperError): void {
    const key = `${host.host}:${host.port}`;
    const byHost = (this.byHost ??= new Map());
    // Latest last: the summary lists the hosts in the order they last failed.
    byHost.delete(key);
    byHost.set(key, error);
    this.last = error;
  }

  /** A connection was made: what failed before no longer explains anything. */
  clear(): void {
    this.byHost = undefined;
    this.last = undefined;
  }

  /** Whether every one of `hosts` failed since the last connection. */
  coversAll(hosts: readonly HostAddress[]): boolean {
    return hosts.every((h) => this.byHost?.has(`${h.host}:${h.port}`) === true);
  }

  /** `tried a:1 (reason), b:2 (reason)`, or undefined when nothing failed. */
  summary(): string | undefined {
    if (this.byHost === undefined || this.byHost.size === 0) return undefined;
    const tried = [...this.byHost].map(([host, error]) => `${host} (${failureReason(error)})`);
    return `tried ${tried.join(', ')}`;
  }

  /**
   * The failures as one ConnectionLossError (its message the summary, its cause the last failure), or
   * undefined when nothing failed.
   */
  asError(detailPrefix: string): ConnectionLossError | undefined {
    const summary = this.summary();
    if (summary === undefined) return undefined;
    const last = this.last;
    // The cause is the last reason itself (the socket's error), not its ConnectionLoss wrapper.
    const cause = last instanceof ConnectionLossError && last.cause !== undefined ? last.cause : last;
    return new ConnectionLossError({ detail: `${detailPrefix}; ${summary}`, cause });
  }
}
