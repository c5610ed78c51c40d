import { describe, expect, it } from 'vitest';
import { cellSpec } from './cell-spec.js';
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

  it('runs our client as built unless told to run its sources', () => {
    expect(parseOptions([]).oursFrom).toBe('built');
    expect(parseOptions(['--ours-from', 'source']).oursFrom).toBe('source');
    expect(() => parseOptions(['--ours-from', 'dist'])).toThrow(/--ours-from must be built or source/);
  });

  it('slows only the embedded server', () => {
    expect(parseOptions(['--slow-server']).slowServer).toBe(true);
    expect(parseOptions(['--slow-server', '--no-pin']).slowServer).toBe(true);
    expect(() => parseOptions(['--slow-server', '--connect', '10.0.0.5:2181'])).toThrow(/--slow-server/);
  });

  it('starts only the embedded server fast, and not slow at the same time', () => {
    expect(parseOptions([]).fastServer).toBe(false);
    expect(parseOptions(['--fast-server']).fastServer).toBe(true);
    expect(() => parseOptions(['--fast-server', '--connect', '10.0.0.5:2181'])).toThrow(/--fast-server/);
    expect(() => parseOptions(['--fast-server', '--slow-server'])).toThrow(/choose one/);
  });

  it('gives session-setup cells a window of their own, 5 s unless --duration or --quick says otherwise', () => {
    expect(parseOptions([]).sessionDurationMs).toBe(5_000);
    expect(parseOptions([]).durationMs).toBe(1_000);
    expect(parseOptions(['--quick']).sessionDurationMs).toBe(500);
    const o = parseOptions(['--duration', '2000']);
    expect([o.durationMs, o.sessionDurationMs]).toEqual([2_000, 2_000]);
    const paths = { data: '/d', children: '/c', scratch: '/s', multi: [] } as never;
    const spec = (scenario: string) => {
      const options = parseOptions([]);
      const [benchCase] = expandCases([scenario], options);
      return cellSpec(options, { connectString: 'x:1' }, paths, {
        round: 1,
        index: 0,
        benchCase: benchCase!,
        contender: 'ours',
      });
    };
    expect(spec('session').durationMs).toBe(5_000);
    expect(spec('getData').durationMs).toBe(1_000);
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

  it('makes --precise a run of 5 rounds of 8 s per cell, session setup too, unless told otherwise', () => {
    const o = parseOptions(['--precise']);
    expect([o.rounds, o.durationMs, o.sessionDurationMs]).toEqual([5, 8_000, 8_000]);
    const told = parseOptions(['--precise', '--rounds', '7', '--duration', '6000']);
    expect([told.rounds, told.durationMs, told.sessionDurationMs]).toEqual([7, 6_000, 6_000]);
    expect(() => parseOptions(['--precise', '--quick'])).toThrow(/choose one/);
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

describe('turns', () => {
  it('takes turns of 400 ms by default, of the given length, or not at all', () => {
    expect(parseOptions([]).turnMs).toBe(400);
    expect(parseOptions([]).turnGapMs).toBe(250);
    expect(parseOptions(['--turns', '300', '--turn-gap', '100'])).toMatchObject({
      turnMs: 300,
      turnGapMs: 100,
    });
    expect(parseOptions(['--turns', 'off']).turnMs).toBe(0);
    expect(parseOptions(['--turns', 'off']).openLoopTurnMs).toBe(0);
    expect(() => parseOptions(['--turns', 'soon'])).toThrow(/--turns/);
  });

  it('gives open-loop cases turns of 2 s by default (quick 400 ms), or of the given length', async () => {
    const { turnMsFor } = await import('./turn-schedule.js');
    const o = parseOptions([]);
    expect([turnMsFor(o, 'latency'), turnMsFor(o, 'throughput')]).toEqual([2_000, 400]);
    expect(parseOptions(['--quick']).openLoopTurnMs).toBe(400);
    const told = parseOptions(['--open-loop-turns', '1500', '--turns', '300']);
    expect([turnMsFor(told, 'latency'), turnMsFor(told, 'throughput')]).toEqual([1_500, 300]);
    expect(() => parseOptions(['--open-loop-turns', '0'])).toThrow(/--open-loop-turns/);
  });

  it('warms the loops up for 5 s first by default (quick 200 ms), or as long as asked, or not', () => {
    expect(parseOptions([]).turnWarmupMs).toBe(5_000);
    expect(parseOptions(['--quick']).turnWarmupMs).toBe(200);
    expect(parseOptions(['--turn-warmup', '0']).turnWarmupMs).toBe(0);
    expect(parseOptions(['--turn-warmup', '900']).turnWarmupMs).toBe(900);
    expect(() => parseOptions(['--turn-warmup', '-1'])).toThrow(/--turn-warmup/);
  });

  it('gives each contender --duration of turns, at least one, after the warm-up of closed loops only', async () => {
    const { turnScheduleFor } = await import('./turn-schedule.js');
    const options = { turnMs: 400, turnGapMs: 250, durationMs: 2_000, turnWarmupMs: 1_500 };
    expect(turnScheduleFor(options, 4)).toEqual({
      index: 0,
      of: 4,
      turnMs: 400,
      gapMs: 250,
      cycles: 5,
      warmUpMs: 1_500,
    });
    expect(turnScheduleFor({ ...options, durationMs: 100 }, 2).cycles).toBe(1);
    expect(turnScheduleFor({ ...options, durationMs: 2_001 }, 2).cycles).toBe(6);
  });

  it('ends after the warm-up cycle and the measured ones, gaps included', async () => {
    const { turnScheduleFor, turnsSpanMs } = await import('./turn-schedule.js');
    const turns = turnScheduleFor({ turnMs: 400, turnGapMs: 250, durationMs: 2_000, turnWarmupMs: 1_500 }, 4);
    expect(turnsSpanMs(turns)).toBe(6 * 4 * 650);
  });
});
