import { describe, expect, it } from 'vitest';
import { PartitionFailedError } from '../partitioner/partitioner-options.js';
import { HoldLostError } from './hold-monitor.js';
import {
  BadRecipeDataError,
  CacheEventsOverflowError,
  IllegalRecipeStateError,
  InvalidRecipeArgumentError,
  LockUpgradeError,
  NodeLostError,
  NotLockOwnerError,
  RecipeConnectionLostError,
  RecipeError,
  RecipeErrorCode,
  ReleaseFailedError,
} from './recipe-errors.js';

/** One instance of each subclass, so that a code added without a class (or the reverse) fails here. */
const samples: RecipeError[] = [
  new InvalidRecipeArgumentError('path', 'must be a string'),
  new NotLockOwnerError('/l'),
  new LockUpgradeError('/l'),
  new NodeLostError('/l'),
  new ReleaseFailedError([new Error('a'), new Error('b')]),
  new HoldLostError({ reason: 'suspended', path: '/l/n' }),
  new IllegalRecipeStateError('closed'),
  new BadRecipeDataError('short'),
  new RecipeConnectionLostError('dropped'),
  new CacheEventsOverflowError(10),
  new PartitionFailedError('/p', 'session-lost'),
];

describe('RecipeError', () => {
  it('has one subclass per code, each with its own name', () => {
    expect(samples.map((error) => error.code).sort()).toEqual(Object.values(RecipeErrorCode).sort());
    for (const error of samples) {
      expect(error).toBeInstanceOf(RecipeError);
      expect(error.name).toBe(error.constructor.name);
      expect(RecipeError.isInstance(error)).toBe(true);
    }
  });

  it('recognises an error made by another copy of the package by its marker, and nothing else', () => {
    // What a CJS copy's error looks like to the ESM copy: a different class, the same global symbol.
    const foreign = Object.assign(new Error('x'), {
      code: 'NOT_OWNER',
      [Symbol.for('zkwire.recipes.error')]: true,
    });
    expect(RecipeError.isInstance(foreign)).toBe(true);
    expect(RecipeError.isInstance(new Error('x'))).toBe(false);
    expect(RecipeError.isInstance({ code: 'NOT_OWNER' })).toBe(false);
    expect(RecipeError.isInstance(null)).toBe(false);
    expect(RecipeError.isInstance('NOT_OWNER')).toBe(false);
  });

  it('names the refused argument in the bad-argument error', () => {
    const error = new InvalidRecipeArgumentError('options.maxDepth', 'must be an integer >= 0, got -1');
    expect(error).toMatchObject({ argument: 'options.maxDepth', code: 'INVALID_ARGUMENT' });
    expect(error.message).toBe('options.maxDepth: must be an integer >= 0, got -1');
  });

  it('keeps what callers read: the release failures, the lost hold', () => {
    const first = new Error('first');
    const failed = new ReleaseFailedError([first, new Error('second')]);
    expect(failed.cause).toBe(first);
    expect(failed.errors).toHaveLength(2);
    const lost = samples.find((error) => error instanceof HoldLostError) as HoldLostError;
    expect(lost).toMatchObject({ reason: 'suspended', path: '/l/n', code: 'HOLD_LOST' });
  });
});
