import { describe, expect, it } from 'vitest';
import { parseOptions } from './options.js';
import { defaultScenarios, expandCases, quickScenarios } from './scenarios/catalog.js';
import { contenderIds } from './types.js';

describe('parseOptions', () => {
  it('defaults to every default scenario and contender, 3 rounds', () => {
    const o = parseOptions([]);
    expect(o).toMatchObject({
      quick: false,
      rounds: 3,
      durationMs: 1_000,
      sessionDurationMs: 5_000,
      writeResults: false,
    });
    expect(o.scenarios).toEqual(defaultScenarios);
    expect(o.scenarios).not.toContain('memory');
    expect(o.contenders).toEqual(contenderIds.filter((id) => id !== 'baseline'));
  });

  it('--baseline REV adds the baseline contender; naming it without a commit is refused', () => {
    expect(parseOptions(['--contenders', 'ours,raw', '--baseline', 'HEAD~1'])).toMatchObject({
      contenders: ['ours', 'raw', 'baseline'],
      baseline: 'HEAD~1',
    });
    expect(() => parseOptions(['--contenders', 'ours,baseline'])).toThrow(/--baseline REV/);
  });

  it('--quick: the quick scenarios in one short round, unless scenarios are named', () => {
    const o = parseOptions(['--quick']);
    expect(o).toMatchObject({ rounds: 1, durationMs: 500, turnWarmupMs: 200, openLoopTurnMs: 400 });
    expect(o.scenarios).toEqual(quickScenarios);
    expect(parseOptions(['--quick', '--scenario', 'watch']).scenarios).toEqual(['watch']);
  });

  it('reads lists, aliases and numbers, and a --duration for the session cells too', () => {
    const o = parseOptions([
      '--scenario',
      'all,memory',
      '--contenders',
      'ours,nzc,native',
      '--in-flight',
      '1,16',
    ]);
    expect(o.scenarios).toEqual([...defaultScenarios, 'memory']);
    expect(o.contenders).toEqual(['ours', 'node-zookeeper-client', 'zookeeper-native']);
    expect(o.inFlight).toEqual([1, 16]);
    expect(parseOptions(['--duration', '8000'])).toMatchObject({
      durationMs: 8_000,
      sessionDurationMs: 8_000,
    });
    expect(parseOptions(['--zk-version', 'debian', '--write-results'])).toMatchObject({
      zkVersion: 'debian',
      writeResults: true,
    });
  });

  it('rejects what it does not know with the list of what it does', () => {
    expect(() => parseOptions(['--scenario', 'getDta'])).toThrow(/unknown scenario "getDta"; known: getData/);
    expect(() => parseOptions(['--contenders', 'zk'])).toThrow(/unknown contender "zk"/);
    expect(() => parseOptions(['--rounds', '0'])).toThrow('--rounds must be a positive integer, got "0"');
    expect(() => parseOptions(['--in-flight', '1,x'])).toThrow('--in-flight must be a positive integer');
    expect(() => parseOptions(['--connect', 'h:1', '--zk-version', '3.9.5'])).toThrow(/not with --connect/);
    expect(() => parseOptions(['--turns', '400'])).toThrow();
  });
});

describe('expandCases', () => {
  it('gives throughput scenarios a case per depth, the others one, the quick run its own depths', () => {
    const keys = (names: string[], quick = false) => expandCases(names, { quick }).map((c) => c.key);
    expect(keys(['getData', 'latency', 'watch'])).toEqual([
      'getData@1',
      'getData@16',
      'getData@256',
      'getData@1000',
      'latency',
      'watch',
    ]);
    expect(keys(['getData', 'setData'], true)).toEqual(['getData@1000', 'setData@256']);
    expect(keys(['memory'])).toEqual(['memoryWatches@10000', 'memoryInFlight@10000']);
    expect(
      expandCases(['latency', 'latency90'], { quick: false }).map((c) => [c.rate, c.saturationShare]),
    ).toEqual([
      [2_000, undefined],
      [undefined, 0.9],
    ]);
  });
});
