import { describe, expect, it } from 'vitest';
import {
  IllegalModeledStateError,
  InvalidModelArgumentError,
  MigrationLockTimeoutError,
  MigrationMismatchError,
  ModelDeserializationError,
  ModelEventsOverflowError,
  ModeledError,
  ModeledErrorCode,
  ModelSerializationError,
  ModelValidationError,
  SchemaViolationError,
  UnresolvedPathError,
} from './errors.js';

/** One instance of each subclass, so that a code added without a class (or the reverse) fails here. */
const samples: ModeledError[] = [
  new InvalidModelArgumentError('modelSpec', 'acl must be an array'),
  new UnresolvedPathError('/t/{id}', 'read'),
  new ModelValidationError('/t/1', 'write', [{ message: 'bad' }]),
  new ModelSerializationError('/t/1', new Error('x')),
  new ModelDeserializationError('/t/1', Uint8Array.of(1), new Error('x')),
  new SchemaViolationError('s', '/t/1', 'no'),
  new MigrationMismatchError('m', 'differs'),
  new MigrationLockTimeoutError('m', 10),
  new IllegalModeledStateError('closed'),
  new ModelEventsOverflowError(4),
];

describe('ModeledError', () => {
  it('has one subclass per code, each an instanceof ModeledError with its own name', () => {
    expect(samples.map((error) => error.code).sort()).toEqual(Object.values(ModeledErrorCode).sort());
    for (const error of samples) {
      expect(error).toBeInstanceOf(ModeledError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(error.constructor.name);
      expect(ModeledError.isInstance(error)).toBe(true);
    }
  });

  it('recognises an error of another copy of the package by its marker, and nothing else', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('zkwire.modeled.error')]: true });
    expect(ModeledError.isInstance(foreign)).toBe(true);
    expect(ModeledError.isInstance(new Error('x'))).toBe(false);
    expect(ModeledError.isInstance({ code: 'MODEL_INVALID' })).toBe(false);
  });

  it('names the refused argument', () => {
    const error = new InvalidModelArgumentError('modelSpec', 'acl must be an array');
    expect(error.argument).toBe('modelSpec');
    expect(error.message).toBe('modelSpec: acl must be an array');
  });
});
