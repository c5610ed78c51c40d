/**
 * `ensembleTracking` (Curator's EnsembleTracker): the client keeps a watch on the ensemble's configuration
 * (`getConfig`) and, when the membership changes, replaces its host list with the members' client addresses
 * (and moves its session if the rebalancing says so, see session/host-list-update.ts).
 *
 * The config is read again, with the watch, after every (re)connection: a watch restored after a reconnect
 * fires for a change made meanwhile, but a new session (after an expiry) has no watch left to fire. A config
 * that cannot be parsed, lists no client address, or is older than the one this session already applied (a
 * lagging server just after a move) is ignored; the host list stays as it was. A new session accepts any
 * version: an ensemble restored from a backup starts again from lower zxids.
 */
import type { ConnectionState, HostAddress, WatchEvent } from '../util/types.js';
import { clientAddresses, type EnsembleConfig, parseEnsembleConfig } from './ensemble-config.js';

/** What the tracker needs from its client. */
export interface TrackedClient {
  /** getConfig with a one-shot watch. */
  readConfig(watch: (event: WatchEvent) => void): Promise<{ data: Buffer }>;
  /** Subscribes to connection state events; returns the unsubscribe function. */
  onState(listener: (state: ConnectionState) => void): () => void;
  /** The current session id (a config applied by another session does not make newer ones stale). */
  sessionId(): bigint;
  /** The client's host list now. */
  hosts(): readonly HostAddress[];
  /** Replaces the host list (rebalancing included). */
  replaceHosts(hosts: HostAddress[]): void;
}

const sameSet = (a: readonly HostAddress[], b: readonly HostAddress[]) =>
  a.length === b.length && a.every((x) => b.some((y) => x.host === y.host && x.port === y.port));

/** Follows the ensemble's membership for one client; {@link close} stops it. */
export class EnsembleTracker {
  private latest: EnsembleConfig | undefined;
  /** The session that applied {@link latest}. */
  private latestSession = 0n;
  private reading = false;
  private readAgain = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly client: TrackedClient) {
    this.unsubscribe = client.onState((state) => {
      if (state === 'connected' || state === 'reconnected' || state === 'read-only') this.refresh();
    });
  }

  /** The last configuration applied, or undefined before the first read. */
  get config(): EnsembleConfig | undefined {
    return this.latest;
  }

  /** Stops following: no more reads; the last watch ends with the session. */
  close(): void {
    this.closed = true;
    this.unsubscribe();
  }

  /** Reads the config (with the watch) now, or once more after the read in progress. */
  refresh(): void {
    if (this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    void this.read();
  }

  /** The watch: any change of the config node reads it again; removal by the user ends the tracking read. */
  private readonly onConfigEvent = (event: WatchEvent): void => {
    if (event.type === 'dataChanged' || event.type === 'created' || event.type === 'deleted') this.refresh();
  };

  private async read(): Promise<void> {
    try {
      const { data } = await this.client.readConfig(this.onConfigEvent);
      if (!this.closed) this.apply(data);
    } catch {
      // ConnectionLoss: the next (re)connection reads again. A server without a config node (3.4) or a
      // closed client: nothing to follow.
    } finally {
      this.reading = false;
      if (this.readAgain) {
        this.readAgain = false;
        this.refresh();
      }
    }
  }

  private apply(data: Buffer): void {
    let config: EnsembleConfig;
    try {
      config = parseEnsembleConfig(data);
    } catch {
      return; // Malformed bytes from the network: keep the list we have.
    }
    const hosts = clientAddresses(config);
    if (hosts.length === 0) return;
    const session = this.client.sessionId();
    const applied = session === this.latestSession ? this.latest?.version : undefined;
    if (applied !== undefined && config.version !== undefined && config.version < applied) return;
    this.latest = config;
    this.latestSession = session;
    if (!sameSet(hosts, this.client.hosts())) this.client.replaceHosts(hosts);
  }
}
