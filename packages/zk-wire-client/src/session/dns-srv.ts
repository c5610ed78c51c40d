/**
 * The servers of a `dns-srv://` connect string (ZooKeeper 3.10's `DnsSrvHostProvider`): its SRV records are
 * looked up once before the first connection attempt (no server found ends the client with
 * DnsSrvLookupError, as the Java client refuses to be built), then again every `dnsSrvRefreshMs`. A changed
 * answer goes to the host rotation (hosts.ts), which rebalances as a host-list update does; a failed or
 * empty refresh keeps the servers the client has, and says so in the log.
 *
 * Lookups go to the `dnsServers` given, else to the system's DNS servers (node:dns `Resolver`, which reads
 * resolv.conf; it never consults /etc/hosts). The targets themselves are host names resolved at each
 * connection, as those of a host list connect string are.
 */
import { Resolver } from 'node:dns/promises';
import { describeError, log } from '../util/logger.js';
import { DnsSrvLookupError } from './dns-srv-error.js';
import { type SrvTarget, sameTargets, srvTargets } from './dns-srv-records.js';
import type { DnsSrvSettings } from './dns-srv-types.js';
import { SessionTimer } from './timers.js';

/**
 * Each DNS server is asked twice, waiting 2 s and then 4 s (c-ares doubles the wait): a server that never
 * answers fails the lookup in about 6 s, inside connect()'s default wait of 15 s.
 */
const LOOKUP_TIMEOUT_MS = 2000;
const LOOKUP_TRIES = 2;

/** node:dns codes of an answer that says the name has no SRV records (rather than that nobody answered). */
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);

/** Looks up a name's SRV records on a schedule and reports the answers that change. */
export class DnsSrvDiscovery {
  private readonly resolver: Resolver;
  /** The pause between lookups (not keeping the process up on its own). */
  private readonly timer = new SessionTimer(false);
  /** The servers of the last answer applied. */
  private known: readonly SrvTarget[] = [];
  private stopped = false;

  constructor(
    private readonly settings: DnsSrvSettings,
    /** Told each answer that lists other servers (or other priorities or weights) than the last. */
    private readonly onChange: (targets: SrvTarget[]) => void,
  ) {
    this.resolver = new Resolver({ timeout: LOOKUP_TIMEOUT_MS, tries: LOOKUP_TRIES });
    if (settings.servers !== undefined) this.resolver.setServers([...settings.servers]);
  }

  /** The servers of the SRV answer now; rejects with DnsSrvLookupError when it gives none. */
  async lookup(): Promise<SrvTarget[]> {
    const { srvName } = this.settings;
    let targets: SrvTarget[];
    try {
      targets = srvTargets(await this.resolver.resolveSrv(srvName));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const dnsCode = typeof code === 'string' ? code : undefined;
      const reason = dnsCode !== undefined && NO_RECORDS.has(dnsCode) ? 'no-records' : 'lookup-failed';
      throw new DnsSrvLookupError(srvName, reason, dnsCode, error);
    }
    if (targets.length === 0) throw new DnsSrvLookupError(srvName, 'no-records', undefined);
    return targets;
  }

  /**
   * The first lookup: `onFirst` with its servers (and the refresh starts), or `onFail` with why there are
   * none. Neither is called once {@link stop} was.
   */
  start(onFirst: (targets: SrvTarget[]) => void, onFail: (error: DnsSrvLookupError) => void): void {
    this.lookup().then(
      (targets) => {
        if (this.stopped) return;
        this.known = targets;
        log(
          this.settings.logger,
          'info',
          () => `zookeeper: ${this.settings.srvName} lists ${describe(targets)}`,
        );
        onFirst(targets);
        this.scheduleRefresh();
      },
      (error: DnsSrvLookupError) => {
        if (this.stopped) return;
        log(this.settings.logger, 'error', () => `zookeeper: ${error.message}`);
        onFail(error);
      },
    );
  }

  /** Stops the refresh, and any lookup under way. Idempotent. */
  stop(): void {
    this.stopped = true;
    this.timer.stop();
    this.resolver.cancel();
  }

  private scheduleRefresh(): void {
    if (this.stopped || this.settings.refreshMs === 0) return;
    this.timer.start(this.settings.refreshMs, () => void this.refresh());
  }

  private async refresh(): Promise<void> {
    try {
      const targets = await this.lookup();
      if (this.stopped) return;
      if (!sameTargets(this.known, targets)) {
        log(
          this.settings.logger,
          'info',
          () => `zookeeper: ${this.settings.srvName} now lists ${describe(targets)}`,
        );
        this.known = targets;
        this.onChange(targets);
      }
    } catch (error) {
      if (this.stopped) return;
      log(
        this.settings.logger,
        'warn',
        () =>
          `zookeeper: refreshing the servers failed (${describeError(error)}); keeping ${describe(this.known)}`,
      );
    } finally {
      this.scheduleRefresh();
    }
  }
}

function describe(targets: readonly SrvTarget[]): string {
  const servers = targets.map((t) => `${t.host}:${t.port} (priority ${t.priority}, weight ${t.weight})`);
  return `${targets.length} server${targets.length === 1 ? '' : 's'}: ${servers.join(', ')}`;
}
