import { zpath } from '@zkwire/modeled';
import { describe, expect, it } from 'vitest';
import { driverArgs } from '../contenders/driver-protocol.js';
import { supports } from '../contenders/index.js';
import { parseOptions } from '../options.js';
import { loadTargets } from '../targets.js';
import { type CellSpec, contenderIds } from '../types.js';
import { defaultScenarios, expandCases, quickScenarios } from './catalog.js';
import {
  batches,
  benchModel,
  cellBase,
  MODEL_COUNT,
  modelIds,
  TRANSACTION_SIZE,
  UpdateTally,
  updateNote,
} from './modeled.js';

const names = ['modeledRead', 'modeledUpdate'];

describe('the modeled scenarios in the catalog', () => {
  it('are opt-in: in neither a default run nor --quick, and run when named', () => {
    for (const name of names) {
      expect(defaultScenarios).not.toContain(name);
      expect(quickScenarios).not.toContain(name);
      expect(parseOptions(['--scenario', 'all']).scenarios).not.toContain(name);
    }
    expect(parseOptions(['--scenario', names.join(',')]).scenarios).toEqual(names);
    expect(parseOptions(['--quick', '--scenario', 'modeledRead']).scenarios).toEqual(['modeledRead']);
  });

  it('are one recipe-kind case each, run by ours and Curator only', () => {
    const cases = expandCases(names, { quick: false });
    expect(cases.map((c) => [c.key, c.kind, c.inFlight])).toEqual([
      ['modeledRead', 'recipe', 1],
      ['modeledUpdate', 'recipe', 1],
    ]);
    for (const benchCase of cases) {
      expect(contenderIds.filter((id) => supports(id, benchCase))).toEqual(['ours', 'curator']);
    }
  });

  it('have targets: ours reads at least as fast as Curator, at no more CPU per read', () => {
    const read = loadTargets().filter((t) => t.cases.includes('modeledRead'));
    expect(read).toEqual([
      { cases: ['modeledRead'], figure: 'opsPerSec', vs: 'curator', min: 1 },
      { cases: ['modeledRead'], figure: 'cpuUsPerOp', vs: 'curator', max: 1 },
    ]);
  });
});

describe('the models of modeledRead', () => {
  it('are 10,000 distinct znode names, as the Java driver numbers them (m%05d)', () => {
    const ids = modelIds(MODEL_COUNT);
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect([ids[0], ids[42], ids[9_999]]).toEqual(['m00000', 'm00042', 'm09999']);
    // each resolves a path parameter, which checks it is one valid znode name
    const path = zpath('/models/{id}');
    expect(ids.filter((id) => path.resolve({ id }).fullPath() !== `/models/${id}`)).toEqual([]);
  });

  it('go to the server in transactions of 1,000, every id once and in order', () => {
    const ids = modelIds(MODEL_COUNT);
    const [, ...rest] = ids;
    const sent = batches(rest, TRANSACTION_SIZE);
    expect(sent.map((b) => b.length)).toEqual([...Array(9).fill(1_000), 999]);
    expect(sent.flat()).toEqual(rest);
    expect(batches(ids, TRANSACTION_SIZE)).toHaveLength(10);
    expect(batches([], TRANSACTION_SIZE)).toEqual([]);
    expect(() => batches(ids, 0)).toThrow(RangeError);
  });

  it('are the bytes Jackson writes for the Java driver’s BenchModel (fields in declared order)', () => {
    expect(JSON.stringify(benchModel('m00007'))).toBe('{"id":"m00007","owner":"zkwire-bench","count":0}');
    expect(benchModel('counter', 3).count).toBe(3);
  });

  it('live under the base the Java driver is given for the same cell', () => {
    const spec = { paths: { root: '/zkwire-bench-x' }, cellId: 'r1c0ours' } as CellSpec;
    const full = {
      ...spec,
      paths: { ...spec.paths, data: '', children: '', multi: [], scratch: '', watch: '' },
      kind: 'recipe',
      scenario: 'modeledRead',
      inFlight: 1,
      warmupMs: 0,
      durationMs: 0,
      connectString: '',
      dataSize: 100,
      contender: 'curator',
    } satisfies CellSpec;
    expect(driverArgs(full)).toContain(`base=${cellBase(full)}`);
    expect(cellBase(spec)).toBe('/zkwire-bench-x/recipes/r1c0ours');
  });
});

describe('UpdateTally (modeledUpdate)', () => {
  it('counts the window’s updates and retries from its opening, and the retries per update', () => {
    const tally = new UpdateTally();
    tally.updates = 5;
    tally.retries = 7;
    tally.open();
    tally.updates += 4;
    tally.retries += 6;
    expect(tally.window()).toEqual({ updates: 4, retries: 6, retriesPerUpdate: 1.5 });
  });

  it('gives 0 retries per update when none went through in the window', () => {
    const tally = new UpdateTally();
    tally.open();
    tally.retries = 3;
    expect(tally.window()).toEqual({ updates: 0, retries: 3, retriesPerUpdate: 0 });
  });

  it('passes a final count equal to every update, warm-up included, and names a lost or extra one', () => {
    const tally = new UpdateTally();
    tally.updates = 10;
    tally.open();
    tally.updates = 25;
    expect(tally.lostUpdates(25)).toBeUndefined();
    expect(tally.lostUpdates(24)).toBe('modeled: the count is 24 after 25 updates went through');
    expect(tally.lostUpdates(26)).toBe('modeled: the count is 26 after 25 updates went through');
  });

  it('notes the retries per update and the final count', () => {
    const note = updateNote({ updates: 200, retries: 50, retriesPerUpdate: 0.25 }, 1234);
    expect(note).toContain('retries per update 0.25 (50 BadVersion in the window)');
    expect(note).toContain('final count 1234 = every update');
  });
});
