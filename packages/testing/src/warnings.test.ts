import { afterEach, describe, expect, it } from 'vitest';
import { recordWarnings } from './warnings.js';

describe('recordWarnings', () => {
  const warnings = recordWarnings();
  afterEach(warnings.clear);

  it('records the warnings emitted before delivered() resolves, in order, by code', async () => {
    process.emitWarning('first', { code: 'TEST_A' });
    process.emitWarning('second', { code: 'TEST_B' });
    process.emitWarning('third', { code: 'TEST_A' });
    await warnings.delivered();
    expect(warnings.withCode('TEST_A').map((warning) => warning.message)).toEqual(['first', 'third']);
    expect(warnings.all.map((warning) => warning.code)).toEqual([
      'TEST_A',
      'TEST_B',
      'TEST_A',
      'TEST_MARKER',
    ]);
  });

  it('forgets on clear() and records nothing after stop()', async () => {
    process.emitWarning('before', { code: 'TEST_C' });
    await warnings.delivered();
    warnings.clear();
    expect(warnings.all).toEqual([]);

    const other = recordWarnings();
    other.stop();
    process.emitWarning('after', { code: 'TEST_C' });
    await warnings.delivered();
    expect(warnings.withCode('TEST_C').map((warning) => warning.message)).toEqual(['after']);
    expect(other.all).toEqual([]);
  });
});
