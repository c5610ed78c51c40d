/**
 * Where a session connects: the host rotation (host-rotation.ts), the search for a read-write server while
 * connected to a read-only one (wire-protocol.md §2.7), a new host list from ensemble tracking or
 * updateServerList, and the hosts of a `dns-srv://` connect string (dns-srv.ts): none until its first
 * lookup, then each changed answer rebalanced as a host-list update (host-list-update.ts), in RFC 2782's
 * order (dns-srv-records.ts). Moving on ends the connection in use, which the session then replaces as after
 * any other loss: requests in flight fail with ConnectionLoss, the session stays.
 */
import type { Connection } from '../transport/connection.js';
import { ReadOnlyProbe, type ReadOnlyProbeOptions } from '../transport/read-only-probe.js';
import { ConnectionLossError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';
import { DnsSrvDiscovery } from './dns-srv.js';
import type { DnsSrvLookupError } from './dns-srv-error.js';
import { addressesOf, byPriority, type SrvTarget, srvOrder } from './dns-srv-records.js';
import type { DnsSrvSettings } from './dns-srv-types.js';
import { planHostListUpdate } from './host-list-update.js';
import { HostRotation } from './host-rotation.js';

export class SessionHosts extends HostRotation {
  private readOnlyProbe: ReadOnlyProbe | undefined;
  /** The SRV lookups of a `dns-srv://` connect string. */
  private readonly discovery: DnsSrvDiscovery | undefined;

  constructor(
    /** The hosts of a host list connect string; none for a `dns-srv://` one (`dnsSrv` finds them). */
    hosts: readonly HostAddress[],
    /** How the probe opens sockets: the session's factory and TLS options. */
    private readonly connect: ReadOnlyProbeOptions['connect'],
    /** The session, for its connection in use, if any. */
    private readonly session: { readonly connectionInUse: Connection | undefined },
    dnsSrv?: DnsSrvSettings,
  ) {
    super(hosts);
    this.discovery =
      dnsSrv === undefined ? undefined : new DnsSrvDiscovery(dnsSrv, (targets) => this.rebalance(targets));
  }

  /** True while the hosts are still to be looked up (a `dns-srv://` connect string before its first answer). */
  get awaitsDiscovery(): boolean {
    return this.discovery !== undefined && this.list.length === 0;
  }

  /**
   * The first SRV lookup: `onReady` once the hosts are known (then the refresh runs until
   * {@link stopDiscovery}), or `onFail` when the lookup gave no server.
   */
  discover(onReady: () => void, onFail: (error: DnsSrvLookupError) => void): void {
    this.discovery?.start((targets) => {
      this.replace(addressesOf(srvOrder(targets)), false);
      onReady();
    }, onFail);
  }

  /** Stops the SRV refresh (the session ended). */
  stopDiscovery(): void {
    this.discovery?.stop();
  }

  /**
   * A changed SRV answer: the probabilistic rebalance of a host-list update decides whether to move; a move
   * tries lower priorities first, otherwise attempts go on through the new answer in RFC 2782's order.
   */
  private rebalance(targets: SrvTarget[]): void {
    const ordered = addressesOf(srvOrder(targets));
    const plan = planHostListUpdate(this.list, ordered, this.current);
    this.replaceHosts(plan.move ? byPriority(plan.hosts, targets) : ordered, plan.move);
  }

  /** On a read-only server: look for a read-write one, and move there once found. */
  searchReadWrite(connection: Connection): void {
    this.stopSearch();
    this.readOnlyProbe = new ReadOnlyProbe({
      hosts: this.list,
      current: this.currentIndex,
      connect: this.connect,
      onReadWrite: (index) => {
        if (connection !== this.session.connectionInUse) return;
        this.tryNext(index);
        connection.close(new ConnectionLossError({ cause: new Error('a read-write server was found') }));
      },
    });
    this.readOnlyProbe.start();
  }

  stopSearch(): void {
    this.readOnlyProbe?.stop();
    this.readOnlyProbe = undefined;
  }

  /**
   * Takes a new host list (the order and the decision to move are host-list-update.ts's). With `move`, the
   * connection in use is closed, as the Java client does, and the next attempt takes `hosts[0]`; without
   * it, attempts go on after the current host.
   */
  replaceHosts(hosts: readonly HostAddress[], move: boolean): void {
    this.replace(hosts, move);
    const connection = this.session.connectionInUse;
    if (connection === undefined) return;
    if (!move) {
      // A read-only probe walks the list by index: start it again over the new list.
      if (this.readOnlyProbe !== undefined) this.searchReadWrite(connection);
      return;
    }
    this.markMove();
    connection.close(new ConnectionLossError({ cause: new Error('moving to rebalance the ensemble') }));
  }
}
