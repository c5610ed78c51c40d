import { describe, expect, it } from 'vitest';
import { checkDuration, checkPositiveInteger, checkSignal, checkTimeout } from './validate.js';

class BadArgument extends Error {}
const invalid = (argument: string, problem: string) => new BadArgument(`${argument} ${problem}`);

describe('argument checks', () => {
  it('take what is valid', () => {
    expect(checkTimeout(undefined, invalid)).toBeUndefined();
    expect(checkTimeout(0, invalid)).toBe(0);
    expect(checkDuration(5, 'waitMs', invalid)).toBe(5);
    expect(checkPositiveInteger(3, 'count', invalid)).toBe(3);
    const signal = new AbortController().signal;
    expect(checkSignal(signal, invalid)).toBe(signal);
    expect(checkSignal(undefined, invalid)).toBeUndefined();
  });

  it('refuse the rest with the caller family error, naming the argument', () => {
    expect(() => checkTimeout(-1, invalid)).toThrow(/^timeoutMs must be a finite number >= 0, got -1$/);
    expect(() => checkTimeout(Number.POSITIVE_INFINITY, invalid)).toThrow(BadArgument);
    expect(() => checkDuration('1', 'waitMs', invalid)).toThrow(/^waitMs /);
    expect(() => checkPositiveInteger(0, 'count', invalid)).toThrow(/^count must be an integer >= 1, got 0$/);
    expect(() => checkPositiveInteger(1.5, 'count', invalid)).toThrow(BadArgument);
    expect(() => checkSignal({}, invalid)).toThrow(/^signal must be an AbortSignal$/);
  });
});
