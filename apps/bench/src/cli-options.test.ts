import { describe, expect, it } from 'vitest';
import { parseOptions } from './cli-options.js';
import { expandCases } from './scenarios.js';

describe('parseOptions', () => {
  it('defaults to every scenario and contender, three rounds', () => {
    const o = parseOptions([]);
    expect(o.rounds).toBe(3);
    expect(o.contenders).toEqual([
      'ours',
      'raw',
      'raw-paced',
      'node-zookeeper-client',
      'zookeeper-native',
      'java',
      'curator',
    ]);
    expect(o.scenarios).toContain('getData');
    expect(o.pin).toBe(true);
    expect(o.slowServer).toBe(false);
  });

  it('slows only the embedded server', () => {
    expect(parseOptions(['--slow-server']).slowServer).toBe(true);
    expect(parseOptions(['--slow-server', '--no-pin']).slowServer).toBe(true);
    expect(() => parseOptions(['--slow-server', '--connect', '10.0.0.5:2181'])).toThrow(/--slow-server/);
  });

  it('makes --quick short and small', () => {
    const o = parseOptions(['--quick']);
    expect(o.rounds).toBe(1);
    expect(o.durationMs).toBeLessThan(1000);
    expect(expandCases(o.scenarios, o).map((c) => c.key)).toEqual([
      'getData@1000',
      'setData@256',
      'latency',
      'watch',
    ]);
  });

  it('accepts short contender names and explicit depths', () => {
    const o = parseOptions([
      '--contenders',
      'ours,nzc,native',
      '--scenario',
      'getData',
      '--in-flight',
      '1,1000',
    ]);
    expect(o.contenders).toEqual(['ours', 'node-zookeeper-client', 'zookeeper-native']);
    expect(expandCases(o.scenarios, o).map((c) => c.key)).toEqual(['getData@1', 'getData@1000']);
  });

  it('refuses unknown names and bad numbers with a message naming the flag', () => {
    expect(() => parseOptions(['--scenario', 'nope'])).toThrow(/unknown scenario "nope"/);
    expect(() => parseOptions(['--contenders', 'kazoo'])).toThrow(/unknown contender "kazoo"/);
    expect(() => parseOptions(['--rounds', '0'])).toThrow(/--rounds must be a positive integer/);
    expect(() => parseOptions(['--in-flight', '1,x'])).toThrow(/--in-flight/);
    expect(() => parseOptions(['--bogus'])).toThrow();
  });
});
