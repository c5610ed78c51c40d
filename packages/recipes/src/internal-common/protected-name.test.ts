import { describe, expect, it } from 'vitest';
import {
  isProtectedName,
  newProtectedPrefix,
  normalizeProtectedName,
  protectedIdOf,
} from './protected-name.js';

describe('protected names (ProtectedUtils)', () => {
  it('makes a 40-character _c_<lower-case uuid>- prefix', () => {
    const prefix = newProtectedPrefix();
    expect(prefix).toMatch(/^_c_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-$/);
    expect(prefix).toHaveLength(40);
    expect(newProtectedPrefix()).not.toBe(prefix);
  });

  it('recognises the names Curator made (observed)', () => {
    const name = '_c_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2-lock-0000000000';
    expect(isProtectedName(name)).toBe(true);
    expect(normalizeProtectedName(name)).toBe('lock-0000000000');
    expect(protectedIdOf(name)).toBe('85e5106c-026e-4b80-8ec4-0c2b7ab87ae2');
    expect(isProtectedName('_c_79c5406d-d5c0-4834-a552-fd0c033fb35b-bar')).toBe(true);
  });

  it('rejects names that only look protected', () => {
    expect(isProtectedName('_c_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2-')).toBe(false); // not longer than 40
    expect(isProtectedName('_x_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2-lock-')).toBe(false);
    expect(isProtectedName('_c_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2_lock-')).toBe(false); // no '-' at 39
    expect(isProtectedName('_c_zzzzzzzz-026e-4b80-8ec4-0c2b7ab87ae2-lock-')).toBe(false); // not a uuid
    expect(normalizeProtectedName('lock-0000000001')).toBe('lock-0000000001');
    expect(protectedIdOf('lock-0000000001')).toBeUndefined();
  });
});
