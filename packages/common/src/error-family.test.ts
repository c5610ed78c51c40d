import { describe, expect, it } from 'vitest';
import { errorFamilyMarker, hasErrorMarker, invalidArgumentMessage, markError } from './error-family.js';

describe('error families', () => {
  const marker = errorFamilyMarker('things');

  it('uses one global symbol per family, so two copies of a package agree', () => {
    expect(marker).toBe(Symbol.for('zkwire.things.error'));
    expect(errorFamilyMarker('other')).not.toBe(marker);
  });

  it('marks an error without showing the mark in its keys or JSON', () => {
    const error = new Error('x');
    expect(hasErrorMarker(error, marker)).toBe(false);
    markError(error, marker);
    expect(hasErrorMarker(error, marker)).toBe(true);
    expect(hasErrorMarker(error, errorFamilyMarker('other'))).toBe(false);
    expect(Object.keys(error)).toEqual([]);
    expect(JSON.stringify({ ...error })).toBe('{}');
  });

  it('knows non-errors are not members', () => {
    for (const value of [null, undefined, 'x', 3, {}]) expect(hasErrorMarker(value, marker)).toBe(false);
  });

  it('writes a bad argument as "<argument>: <problem>"', () => {
    expect(invalidArgumentMessage('timeoutMs', 'must be >= 0')).toBe('timeoutMs: must be >= 0');
  });
});
