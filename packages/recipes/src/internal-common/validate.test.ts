import { describe, expect, it } from 'vitest';
import { InvalidRecipeArgumentError, RecipeError } from './recipe-errors.js';
import { validatePositiveInteger, validateRecipePath } from './validate.js';

describe('validateRecipePath', () => {
  it('accepts absolute paths', () => {
    expect(validateRecipePath('/locks/a')).toBe('/locks/a');
  });

  it.each<unknown>(['', 'relative', '/', '/a/', '/a//b', '/a/./b', '/a/../b', '/a\u0000b', 42, undefined])(
    'refuses %j with a typed error',
    (path) => {
      let caught: unknown;
      try {
        validateRecipePath(path);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidRecipeArgumentError);
      expect(RecipeError.isInstance(caught)).toBe(true);
      expect((caught as RecipeError).code).toBe('INVALID_ARGUMENT');
    },
  );
});

describe('validatePositiveInteger', () => {
  it('accepts 1 and up, refuses the rest', () => {
    expect(validatePositiveInteger(3, 'qty')).toBe(3);
    for (const bad of [0, -1, 1.5, Number.NaN, '2']) {
      expect(() => validatePositiveInteger(bad, 'qty')).toThrow(InvalidRecipeArgumentError);
    }
  });
});
