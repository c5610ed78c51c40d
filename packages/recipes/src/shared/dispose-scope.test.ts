import { describe, expect, it } from 'vitest';
import { DeadlineExpired } from '../internal-common/deadline.js';
import { IllegalRecipeStateError, RecipeError } from '../internal-common/recipe-errors.js';
import { DisposeScope } from './dispose-scope.js';

const never = new Promise<never>(() => {});

describe('DisposeScope', () => {
  it('ends a pending wait with ILLEGAL_STATE when the object is disposed', async () => {
    const scope = new DisposeScope('Thing');
    const waiting = scope.deadline(undefined).guard(never);
    scope.close();
    await expect(waiting).rejects.toSatisfy(
      (error) =>
        RecipeError.isInstance(error) &&
        error instanceof IllegalRecipeStateError &&
        error.code === 'ILLEGAL_STATE' &&
        /Thing was closed/.test(error.message),
    );
    expect(() => scope.checkOpen()).toThrow(IllegalRecipeStateError);
    expect(() => scope.deadline(undefined)).toThrow(IllegalRecipeStateError);
    scope.close(); // idempotent
  });

  it("keeps the caller's timeout and signal", async () => {
    const scope = new DisposeScope('Thing');
    await expect(scope.deadline({ timeoutMs: 5 }).guard(never)).rejects.toBeInstanceOf(DeadlineExpired);
    const controller = new AbortController();
    const waiting = scope.deadline({ signal: controller.signal }).guard(never);
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(scope.closed).toBe(false);
  });

  it('validates the options before anything else', () => {
    const scope = new DisposeScope('Thing');
    expect(() => scope.deadline({ timeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => scope.deadline({ signal: 'no' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
