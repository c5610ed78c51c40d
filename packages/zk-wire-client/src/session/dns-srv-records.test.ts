import { describe, expect, it } from 'vitest';
import { byPriority, type SrvTarget, sameTargets, srvOrder, srvTargets } from './dns-srv-records.js';

const target = (host: string, port: number, priority: number, weight: number): SrvTarget => ({
  host,
  port,
  priority,
  weight,
});

/** A seeded generator in [0, 1) (a linear congruential one: enough to draw many orders). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('SRV records as hosts', () => {
  it('keeps records with a target and a port, one per address (its lowest priority)', () => {
    const targets = srvTargets([
      { name: 'zk1.example.org.', port: 2181, priority: 10, weight: 1 },
      { name: 'zk1.example.org', port: 2181, priority: 0, weight: 5 },
      { name: '.', port: 2181, priority: 0, weight: 0 },
      { name: '', port: 2181, priority: 0, weight: 0 },
      { name: 'zk2.example.org', port: 0, priority: 0, weight: 0 },
      { name: 'zk2.example.org', port: 2182, priority: 1, weight: 0 },
    ]);
    expect(targets).toEqual([target('zk1.example.org', 2181, 0, 5), target('zk2.example.org', 2182, 1, 0)]);
  });

  it('orders by priority, lowest first, whatever the draws', () => {
    const targets = [
      target('c', 3, 20, 100),
      target('a', 1, 0, 1),
      target('b', 2, 10, 50),
      target('a2', 1, 0, 9),
    ];
    for (let seed = 1; seed <= 50; seed++) {
      const order = srvOrder(targets, seeded(seed));
      expect(order.map((t) => t.priority)).toEqual([0, 0, 10, 20]);
      expect(new Set(order)).toEqual(new Set(targets));
    }
  });

  it('within a priority, a record comes first about as often as its share of the weight', () => {
    const targets = [target('light', 1, 0, 1), target('heavy', 2, 0, 3), target('none', 3, 0, 0)];
    const random = seeded(7);
    const first = new Map<string, number>();
    const draws = 4000;
    for (let i = 0; i < draws; i++) {
      const host = srvOrder(targets, random)[0]!.host;
      first.set(host, (first.get(host) ?? 0) + 1);
    }
    // Expected shares: heavy 3/5, light 1/5, weight 0 only on a draw of 0 (1 in 5 here): 1/5.
    expect((first.get('heavy') ?? 0) / draws).toBeGreaterThan(0.5);
    expect((first.get('heavy') ?? 0) / draws).toBeLessThan(0.7);
    expect((first.get('light') ?? 0) / draws).toBeGreaterThan(0.12);
    expect((first.get('light') ?? 0) / draws).toBeLessThan(0.28);
    expect(first.get('none') ?? 0).toBeLessThan(first.get('heavy') ?? 0);
  });

  it('all weights 0: every record still gets placed, in some order', () => {
    const targets = [target('a', 1, 0, 0), target('b', 2, 0, 0), target('c', 3, 0, 0)];
    const seen = new Set<string>();
    const random = seeded(3);
    for (let i = 0; i < 200; i++) {
      const order = srvOrder(targets, random);
      expect(order).toHaveLength(3);
      seen.add(order[0]!.host);
    }
    expect(seen.size).toBe(3);
  });

  it('a rebalancing order keeps its order within a priority, lower priorities first', () => {
    const targets = [target('a', 1, 5, 0), target('b', 2, 0, 0), target('c', 3, 5, 0), target('d', 4, 0, 0)];
    const plan = [
      { host: 'c', port: 3 },
      { host: 'a', port: 1 },
      { host: 'd', port: 4 },
      { host: 'b', port: 2 },
    ];
    expect(byPriority(plan, targets).map((h) => h.host)).toEqual(['d', 'b', 'c', 'a']);
  });

  it('compares answers by address, priority and weight, not by order', () => {
    const a = [target('a', 1, 0, 1), target('b', 2, 0, 1)];
    expect(sameTargets(a, [target('b', 2, 0, 1), target('a', 1, 0, 1)])).toBe(true);
    expect(sameTargets(a, [target('a', 1, 0, 1)])).toBe(false);
    expect(sameTargets(a, [target('a', 1, 0, 1), target('b', 2, 1, 1)])).toBe(false);
    expect(sameTargets(a, [target('a', 1, 0, 1), target('b', 3, 0, 1)])).toBe(false);
  });
});
