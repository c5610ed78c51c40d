import { describe, expect, it } from 'vitest';
import { Deadline } from './deadline.js';
import { InvalidRecipeArgumentError } from './recipe-errors.js';

describe('Deadline (the recipes binding of @zkwire/common)', () => {
  it('refuses bad options with InvalidRecipeArgumentError', () => {
    expect(() => Deadline.of({ timeoutMs: -1 })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ timeoutMs: Number.NaN })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ timeoutMs: '5' as unknown as number })).toThrow(InvalidRecipeArgumentError);
    expect(() => Deadline.of({ signal: {} as AbortSignal })).toThrow(InvalidRecipeArgumentError);
  });

  it('starts the clock of valid options', () => {
    expect(Deadline.of({ timeoutMs: 60_000 }).bounded).toBe(true);
    expect(Deadline.of(undefined).toOptions()).toEqual({});
  });
});
