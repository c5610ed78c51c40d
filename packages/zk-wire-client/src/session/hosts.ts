/**
 * Where a session connects: the host rotation (host-rotation.ts), the search for a read-write server while
 * connected to a read-only one (wire-protocol.md §2.7), and a new host list from ensemble tracking or
 * updateServerList. Moving on ends the connection in use, which the session then replaces as after any other
 * loss: requests in flight fail with ConnectionLoss, the session stays.
 */
import type { Connection } from '../transport/connection.js';
import { ReadOnlyProbe, type ReadOnlyProbeOptions } from '../transport/read-only-probe.js';
import type { HostAddress } from '../util/connect-string.js';
import { ConnectionLossError } from '../util/errors.js';
import { HostRotation } from './host-rotation.js';

export class SessionHosts extends HostRotation {
  private readOnlyProbe: ReadOnlyProbe | undefined;

  constructor(
    hosts: readonly HostAddress[],
    /** How the probe opens sockets: the session's factory and TLS options. */
    private readonly connect: ReadOnlyProbeOptions['connect'],
    /** The session's connection in use, if any. */
    private readonly connection: () => Connection | undefined,
  ) {
    super(hosts);
  }

  /** On a read-only server: look for a read-write one, and move there once found. */
  searchReadWrite(connection: Connection): void {
    this.stopSearch();
    this.readOnlyProbe = new ReadOnlyProbe({
      hosts: this.list,
      current: this.currentIndex,
      connect: this.connect,
      onReadWrite: (index) => {
        if (connection !== this.connection()) return;
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
    const connection = this.connection();
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
