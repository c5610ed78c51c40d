/**
 * SRV records as a host list: which records are servers, and the order connection attempts take them in
 * (RFC 2782): lower priority first; within one priority, a weighted random draw, each record in turn taken
 * with a chance proportional to its weight (records of weight 0 only have a small chance to come first, and
 * records of equal weight an equal one).
 */
import type { SrvRecord } from 'node:dns';
import { shuffled } from '../util/shuffle.js';
import type { HostAddress } from '../util/types.js';

/** One server of the SRV answer. */
export interface SrvTarget extends HostAddress {
  readonly priority: number;
  readonly weight: number;
}

const key = (address: HostAddress) => `${address.host}\u0000${address.port}`;

/**
 * The servers of an SRV answer: records with a target and a port (a target of `.` says the service is not
 * offered at this name, RFC 2782), one per address (the one of lowest priority, as it is tried first).
 */
export function srvTargets(records: readonly SrvRecord[]): SrvTarget[] {
  const byAddress = new Map<string, SrvTarget>();
  for (const record of records) {
    const host = record.name.endsWith('.') ? record.name.slice(0, -1) : record.name;
    if (host === '' || !Number.isInteger(record.port) || record.port < 1 || record.port > 65535) continue;
    const target: SrvTarget = { host, port: record.port, priority: record.priority, weight: record.weight };
    const seen = byAddress.get(key(target));
    if (seen === undefined || target.priority < seen.priority) byAddress.set(key(target), target);
  }
  return [...byAddress.values()];
}

/** RFC 2782's selection, repeated until every target is placed. `random` returns a number in [0, 1). */
export function srvOrder(targets: readonly SrvTarget[], random: () => number = Math.random): SrvTarget[] {
  const priorities = [...new Set(targets.map((t) => t.priority))].sort((a, b) => a - b);
  const order: SrvTarget[] = [];
  for (const priority of priorities) {
    // "In any order" (the RFC): shuffled, so that records of equal weight (all 0, often) share the clients.
    // Then weight 0 first, so that a draw of 0 picks one of them: their only chance, as the RFC has it.
    const left = shuffled(
      targets.filter((t) => t.priority === priority),
      random,
    ).sort((a, b) => (a.weight === 0 ? 0 : 1) - (b.weight === 0 ? 0 : 1));
    while (left.length > 0) {
      const total = left.reduce((sum, t) => sum + t.weight, 0);
      // A uniform integer in [0, total], inclusive; the first running sum to reach it is chosen.
      const draw = Math.floor(random() * (total + 1));
      let running = 0;
      let chosen = left.length - 1;
      for (let i = 0; i < left.length; i++) {
        running += left[i]!.weight;
        if (running >= draw) {
          chosen = i;
          break;
        }
      }
      order.push(...left.splice(chosen, 1));
    }
  }
  return order;
}

/**
 * `hosts` (a rebalancing plan's order, host-list-update.ts) with lower priorities first; within a priority
 * the plan's order stays. Hosts missing from `targets` go last.
 */
export function byPriority(hosts: readonly HostAddress[], targets: readonly SrvTarget[]): HostAddress[] {
  const priority = new Map(targets.map((t) => [key(t), t.priority]));
  const rank = (address: HostAddress) => priority.get(key(address)) ?? Number.POSITIVE_INFINITY;
  // Array.prototype.sort is stable.
  return [...hosts].sort((a, b) => rank(a) - rank(b));
}

/** Whether two answers list the same servers with the same priorities and weights. */
export function sameTargets(a: readonly SrvTarget[], b: readonly SrvTarget[]): boolean {
  if (a.length !== b.length) return false;
  const inA = new Map(a.map((t) => [key(t), t]));
  return b.every((t) => {
    const other = inA.get(key(t));
    return other !== undefined && other.priority === t.priority && other.weight === t.weight;
  });
}

/** The address part of targets (what the host rotation holds). */
export function addressesOf(targets: readonly SrvTarget[]): HostAddress[] {
  return targets.map((t) => ({ host: t.host, port: t.port }));
}
