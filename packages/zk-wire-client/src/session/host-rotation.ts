/**
 * The order in which a session tries its hosts: the list shuffled once (util/shuffle.ts), walked round
 * and round, one host per connection attempt. A full round without a session earns a longer pause before
 * the next (timers.ts reconnectDelayMs); a move to rebalance the ensemble does not count as one.
 */
import type { HostAddress } from '../util/types.js';

export class HostRotation {
  private hosts: HostAddress[];
  private index = -1;
  /** Set by {@link markMove} when the session moves: the reconnect that follows is not a failed round. */
  private moving = false;

  constructor(hosts: readonly HostAddress[]) {
    this.hosts = [...hosts];
  }

  /** The host for the next connection attempt (the one after the current). */
  next(): HostAddress {
    this.index = (this.index + 1) % this.hosts.length;
    return this.hosts[this.index]!;
  }

  /** The host of the current (or last) attempt; undefined before the first. */
  get current(): HostAddress | undefined {
    return this.hosts[this.index];
  }

  /** The host list, in the order attempts go through it. */
  get list(): readonly HostAddress[] {
    return this.hosts;
  }

  /** Where the current host is in {@link list} (-1 before the first attempt). */
  get currentIndex(): number {
    return this.index;
  }

  /** Whether the attempt that just failed ended a full round (and was not a move). Asked once per failure. */
  takeFullRound(): boolean {
    const fullRound = !this.moving && (this.index + 1) % this.hosts.length === 0;
    this.moving = false;
    return fullRound;
  }

  /** Makes `index` the next host tried (a read-write server found by the read-only probe). */
  tryNext(index: number): void {
    this.index = index - 1;
  }

  /**
   * Takes a new list (ensemble tracking, updateServerList). With `move` the next attempt takes `hosts[0]`;
   * without, attempts go on after the current host, wherever it now is.
   */
  replace(hosts: readonly HostAddress[], move: boolean): void {
    const current = this.current;
    this.hosts = [...hosts];
    this.index =
      move || current === undefined
        ? -1
        : this.hosts.findIndex((h) => h.host === current.host && h.port === current.port);
  }

  /** The session closes its connection to move to the new list: the failure that follows is no round's end. */
  markMove(): void {
    this.moving = true;
  }
}
