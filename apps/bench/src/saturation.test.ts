import { describe, expect, it } from 'vitest';
import { parseOptions } from './cli-options.js';
import {
  CALIBRATION_IN_FLIGHT,
  calibrationSpec,
  openLoopRate,
  type SaturationMeasurement,
  saturationFrom,
} from './saturation.js';
import { expandCases } from './scenarios.js';
import type { FixturePaths } from './types.js';

const measured = (opsPerSec: number): SaturationMeasurement => ({
  round: 1,
  contender: 'raw',
  op: 'getData',
  inFlight: CALIBRATION_IN_FLIGHT,
  opsPerSec,
});

describe('openLoopRate', () => {
  it('takes the share of the measured rate, rounded to whole requests per second', () => {
    expect(openLoopRate(measured(31_237), 0.5)).toEqual({ rate: 15_619 });
    expect(openLoopRate(measured(31_237), 0.9)).toEqual({ rate: 28_113 });
    expect(openLoopRate(measured(1000), 1)).toEqual({ rate: 1000 });
  });

  it('says why when the round has no usable rate', () => {
    expect(openLoopRate(undefined, 0.5)).toEqual({ error: 'no saturation rate measured in this round' });
    const { opsPerSec: _none, ...failed } = { ...measured(0), error: 'connect refused' };
    expect(openLoopRate(failed, 0.9)).toEqual({
      error: 'saturation calibration failed: connect refused',
    });
    expect(openLoopRate(measured(12), 0.5)).toMatchObject({ error: expect.stringMatching(/too low/) });
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() => openLoopRate(measured(1000), 0)).toThrow(RangeError);
    expect(() => openLoopRate(measured(1000), 1.5)).toThrow(RangeError);
    expect(() => openLoopRate(measured(1000), Number.NaN)).toThrow(RangeError);
  });
});

describe('saturationFrom', () => {
  it('turns the calibration cell into ops/s and CPU per op', () => {
    const m = saturationFrom(2, { ok: true, ops: 30_000, elapsedMs: 1000, cpuUs: 150_000, errors: 0 });
    expect(m).toEqual({ ...measured(30_000), round: 2, cpuUsPerOp: 5 });
  });

  it('keeps no rate from a failed cell, an empty one, or one with errors', () => {
    expect(saturationFrom(1, { ok: false, error: 'worker gave no result' })).toMatchObject({
      error: 'worker gave no result',
    });
    expect(
      saturationFrom(1, { ok: true, ops: 0, elapsedMs: 1000, cpuUs: 0, errors: 0 }).opsPerSec,
    ).toBeUndefined();
    expect(saturationFrom(1, { ok: true, ops: 900, elapsedMs: 1000, cpuUs: 1, errors: 3 })).toMatchObject({
      error: '3 getData failed in the window',
    });
  });
});

describe('calibration and open-loop cases', () => {
  it('calibrates with greedy raw getData at 256 in flight and the run timings', () => {
    const paths = { root: '/r', data: '/r/d' } as FixturePaths;
    const spec = calibrationSpec(
      { warmupMs: 300, durationMs: 1000, connectString: 'h:1', paths, dataSize: 100 },
      3,
    );
    expect(spec).toMatchObject({
      contender: 'raw',
      kind: 'throughput',
      op: 'getData',
      inFlight: 256,
      warmupMs: 300,
      durationMs: 1000,
      cellId: 'r3sat',
    });
  });

  it('expands latency50 and latency90 to cases with a share and no fixed rate', () => {
    const o = parseOptions(['--scenario', 'latency,latency50,latency90', '--rate', '3000']);
    const cases = expandCases(o.scenarios, o);
    expect(cases.map((c) => [c.key, c.rate, c.saturationShare])).toEqual([
      ['latency', 3000, undefined],
      ['latency50', undefined, 0.5],
      ['latency90', undefined, 0.9],
    ]);
  });
});
