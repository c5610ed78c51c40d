import { describe, expect, it } from 'vitest';
import { DownInstances } from './down-instances.js';
import { InvalidDiscoveryArgumentError } from './errors.js';
import { createServiceInstance } from './service-instance.js';
import { RandomStrategy, RoundRobinStrategy, StickyStrategy } from './strategies.js';

const make = (id: string, port = 80) =>
  createServiceInstance({ name: 's', id, address: 'h', port, registrationTimeUTC: 1 });
const [a, b, c] = [make('a'), make('b'), make('c')];

describe('provider strategies', () => {
  it('round-robin walks the list in order, wrapping', () => {
    const strategy = new RoundRobinStrategy();
    expect([1, 2, 3, 4, 5].map(() => strategy.getInstance([a, b, c])?.id)).toEqual(['a', 'b', 'c', 'a', 'b']);
    expect(strategy.getInstance([])).toBeUndefined();
  });

  it('random picks by its random source', () => {
    const values = [0, 0.5, 0.99];
    const strategy = new RandomStrategy(() => values.shift() ?? 0);
    expect([1, 2, 3].map(() => strategy.getInstance([a, b, c])?.id)).toEqual(['a', 'b', 'c']);
  });

  it('sticky keeps its instance while an equal one is listed, then asks the master; counts switches', () => {
    const strategy = new StickyStrategy(new RoundRobinStrategy());
    expect(strategy.getInstance([a, b])?.id).toBe('a');
    expect(strategy.getInstance([b, a])?.id).toBe('a');
    expect(strategy.instanceNumber).toBe(1);
    expect(strategy.getInstance([b, c])?.id).toBe('c'); // the master's counter moved on to 1
    expect(strategy.instanceNumber).toBe(2);
    // An instance with the same id but another field is a different instance (Curator's equals).
    expect(strategy.getInstance([make('c', 81), b])?.id).toBe('c');
    expect(strategy.instanceNumber).toBe(3);
  });
});

describe('down-instance policy (Curator defaults 30000 ms, 2 errors)', () => {
  it('takes an instance out once its errors reach the threshold, until its record expires (purged every timeout/2)', () => {
    let now = 1_000;
    const down = new DownInstances({}, () => now);
    expect([down.timeoutMs, down.errorThreshold]).toEqual([30_000, 2]);
    down.add(a);
    expect(down.isUp(a)).toBe(true);
    down.add(a);
    expect(down.isUp(a)).toBe(false);
    expect(down.isUp(b)).toBe(true);
    now += 29_999; // a purge runs (15000 since the last one), but the record is not yet 30000 old
    expect(down.isUp(a)).toBe(false);
    now += 1; // expired now, but the next purge is due only 15000 after the last one
    expect(down.isUp(a)).toBe(false);
    now += 14_999;
    expect(down.isUp(a)).toBe(true);
    expect(down.size).toBe(0);
  });

  it('purges lazily: an expired record may keep an instance out up to 1.5x the timeout', () => {
    let now = 0;
    const down = new DownInstances({ timeoutMs: 1_000, errorThreshold: 1 }, () => now);
    now = 600;
    down.add(a); // purge runs (600 >= 500): nothing to purge; record starts at 600
    now = 1_000;
    expect(down.isUp(a)).toBe(false); // 400 since last purge: no purge
    now = 1_650;
    expect(down.isUp(a)).toBe(true); // purge runs at 1650: record is 1050 old
  });

  it('an instance that changed starts clean; bad policies are refused', () => {
    const down = new DownInstances({ errorThreshold: 1 });
    down.add(a);
    expect(down.isUp(a)).toBe(false);
    expect(down.isUp(make('a', 81))).toBe(true);
    expect(() => new DownInstances({ errorThreshold: 0 })).toThrow(InvalidDiscoveryArgumentError);
    expect(() => new DownInstances({ timeoutMs: -1 })).toThrow(InvalidDiscoveryArgumentError);
  });
});
