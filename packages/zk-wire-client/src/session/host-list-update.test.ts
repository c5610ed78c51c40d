import { describe, expect, it } from 'vitest';
import type { HostAddress } from '../util/types.js';
import { moveProbabilities, planHostListUpdate } from './host-list-update.js';

/** mulberry32: a small seeded generator, so every run draws the same numbers. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const server = (n: number): HostAddress => ({ host: `10.0.0.${n}`, port: 2181 });
const servers = (...ns: number[]) => ns.map(server);
const key = (a: HostAddress) => `${a.host}:${a.port}`;

/**
 * `perServer` clients on each server of `before`; each plans the change to `after` with the shared seeded
 * generator and lands on its first attempt when it moves. Returns how many moved and where all ended up.
 */
function simulate(before: HostAddress[], after: HostAddress[], perServer: number, seed: number) {
  const random = seeded(seed);
  const load = new Map<string, number>(after.map((a) => [key(a), 0]));
  let moved = 0;
  for (const current of before) {
    for (let i = 0; i < perServer; i++) {
      const plan = planHostListUpdate(before, after, current, random);
      const landed = plan.move ? plan.hosts[0]! : current;
      if (plan.move) moved++;
      load.set(key(landed), (load.get(key(landed)) ?? 0) + 1);
    }
  }
  return { moved, load };
}

describe('moveProbabilities (StaticHostProvider.updateServerList)', () => {
  it('growing: a client whose server stays moves with 1 - S/N, to added servers only', () => {
    expect(moveProbabilities(servers(1, 2, 3), servers(1, 2, 3, 4, 5), server(1))).toEqual({
      toAdded: 1 - 3 / 5,
      toKept: 0,
    });
    expect(moveProbabilities(servers(1, 2, 3), servers(1, 2, 4, 5), server(3))).toEqual({
      toAdded: 1,
      toKept: 0,
    });
  });

  it('shrinking or same size: a client whose server stays never moves; one whose server left always does', () => {
    expect(moveProbabilities(servers(1, 2, 3, 4, 5), servers(1, 2, 3), server(2))).toEqual({
      toAdded: 0,
      toKept: 0,
    });
    expect(moveProbabilities(servers(1, 2, 3, 4, 5), servers(1, 2, 3), server(5))).toEqual({
      toAdded: 0,
      toKept: 1,
    });
    // 5 -> 4: three kept, one added. Kept: 3·(5-4) / (4·(5-3)) = 3/8; added: 5/8.
    expect(moveProbabilities(servers(1, 2, 3, 4, 5), servers(1, 2, 3, 6), server(4))).toEqual({
      toAdded: 5 / 8,
      toKept: 3 / 8,
    });
    // One replaced: the clients of the one that left all go to the new one.
    expect(moveProbabilities(servers(1, 2, 3), servers(1, 2, 4), server(3))).toEqual({
      toAdded: 1,
      toKept: 0,
    });
    expect(moveProbabilities(servers(1, 2, 3), servers(3, 1, 2), server(3))).toEqual({
      toAdded: 0,
      toKept: 0,
    });
  });
});

describe('planHostListUpdate: load spreads evenly while as few clients as possible move (seeded)', () => {
  it('3 -> 5 servers: about 40% of the clients move, every server ends with about a fifth', () => {
    const { moved, load } = simulate(servers(1, 2, 3), servers(1, 2, 3, 4, 5), 2000, 1);
    expect(moved / 6000).toBeGreaterThan(0.37);
    expect(moved / 6000).toBeLessThan(0.43);
    for (const count of load.values()) {
      expect(count).toBeGreaterThan(1200 * 0.9);
      expect(count).toBeLessThan(1200 * 1.1);
    }
  });

  it('5 -> 3 servers: exactly the clients of the two that left move, spread over the three kept', () => {
    const { moved, load } = simulate(servers(1, 2, 3, 4, 5), servers(1, 2, 3), 1200, 2);
    expect(moved).toBe(2400);
    for (const count of load.values()) {
      expect(count).toBeGreaterThan(2000 * 0.93);
      expect(count).toBeLessThan(2000 * 1.07);
    }
  });

  it('5 -> 4 servers (two left, one added): a quarter each', () => {
    const { moved, load } = simulate(servers(1, 2, 3, 4, 5), servers(1, 2, 3, 6), 1600, 3);
    expect(moved).toBe(3200);
    for (const count of load.values()) {
      expect(count).toBeGreaterThan(2000 * 0.93);
      expect(count).toBeLessThan(2000 * 1.07);
    }
  });

  it('the same servers in another order: nobody moves, and the list is the new one', () => {
    const plan = planHostListUpdate(servers(1, 2, 3), servers(3, 2, 1, 2), server(2), seeded(4));
    expect(plan.move).toBe(false);
    expect(plan.hosts.map(key).sort()).toEqual(servers(1, 2, 3).map(key));
  });

  it('a moving client tries the added servers first when that is where it goes, then the rest', () => {
    const plan = planHostListUpdate(servers(1, 2, 3), servers(1, 2, 4, 5), server(3), seeded(5));
    expect(plan.move).toBe(true);
    expect(plan.hosts.slice(0, 2).map(key).sort()).toEqual(servers(4, 5).map(key));
    expect(plan.hosts.slice(2).map(key).sort()).toEqual(servers(1, 2).map(key));
  });

  it('with no connection yet, the first server of the old list counts as the current one', () => {
    // 1 -> 1, 2: server 1 stays, so a client moves with probability 1/2; over many, about half do.
    const random = seeded(6);
    let moved = 0;
    for (let i = 0; i < 2000; i++)
      if (planHostListUpdate(servers(1), servers(1, 2), undefined, random).move) moved++;
    expect(moved).toBeGreaterThan(900);
    expect(moved).toBeLessThan(1100);
    expect(planHostListUpdate([], servers(1, 2), undefined, random).move).toBe(false);
  });

  it('refuses an empty new list', () => {
    expect(() => planHostListUpdate(servers(1), [], server(1))).toThrow(RangeError);
  });
});
