import { zpath } from '@zkwire/modeled';
import { describe, expect, it } from 'vitest';
import { cellBase, driverArgs } from '../contenders/driver-protocol.js';
import { supports } from '../contenders/index.js';
import { parseOptions } from '../options.js';
import { loadTargets } from '../targets.js';
import { type CellSpec, contenderIds } from '../types.js';
import { defaultScenarios, expandCases, quickScenarios } from './catalog.js';
import { batches, benchModel, MODEL_COUNT, modelIds, TRANSACTION_SIZE } from './modeled.js';

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
