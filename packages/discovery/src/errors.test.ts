import { describe, expect, it } from 'vitest';
import {
  BadInstanceDataError,
  DiscoveryError,
  DiscoveryErrorCode,
  IllegalDiscoveryStateError,
  InvalidDiscoveryArgumentError,
  ServiceNotRegisteredError,
} from './errors.js';

/** One instance of each subclass, so that a code added without a class (or the reverse) fails here. */
const samples: DiscoveryError[] = [
  new InvalidDiscoveryArgumentError('name', 'must be a non-empty string'),
  new IllegalDiscoveryStateError('closed'),
  new ServiceNotRegisteredError('billing', 'b1'),
  new BadInstanceDataError('/s/billing/b1', 'not JSON'),
];

describe('DiscoveryError', () => {
  it('has one subclass per code, each an instanceof DiscoveryError with its own name', () => {
    expect(samples.map((error) => error.code).sort()).toEqual(Object.values(DiscoveryErrorCode).sort());
    for (const error of samples) {
      expect(error).toBeInstanceOf(DiscoveryError);
      expect(error.name).toBe(error.constructor.name);
      expect(DiscoveryError.isInstance(error)).toBe(true);
    }
  });

  it('recognises an error of another copy of the package by its marker, and nothing else', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('zkwire.discovery.error')]: true });
    expect(DiscoveryError.isInstance(foreign)).toBe(true);
    expect(DiscoveryError.isInstance(new Error('x'))).toBe(false);
    expect(DiscoveryError.isInstance({ code: 'ILLEGAL_STATE' })).toBe(false);
  });

  it('names the refused argument', () => {
    const error = new InvalidDiscoveryArgumentError('name', 'must be a non-empty string');
    expect(error.argument).toBe('name');
    expect(error.message).toBe('name: must be a non-empty string');
  });
});
