import { describe, expect, it } from 'vitest';
import {
  firstCreatePath,
  isEphemeralMode,
  isSequentialMode,
  isTtlMode,
  MAX_TTL_MS,
  PERSISTENT_NODE_MODES,
  parentOf,
  persistentNodeSettings,
  recreateModeOf,
} from './persistent-node-options.js';

describe('PersistentNode naming rules (Curator 5.4 PersistentNode.createNode / getCreateMode)', () => {
  it('puts the protection prefix before the last segment of the base path', () => {
    const prefix = '_c_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2-';
    expect(firstCreatePath('/group/member-', prefix)).toBe(`/group/${prefix}member-`);
    expect(firstCreatePath('/top', prefix)).toBe(`/${prefix}top`);
    expect(firstCreatePath('/group/member-', undefined)).toBe('/group/member-');
  });

  it('re-creates a sequential node in its plain mode, so the name (digits included) stays', () => {
    expect(recreateModeOf('ephemeral-sequential')).toBe('ephemeral');
    expect(recreateModeOf('persistent-sequential')).toBe('persistent');
    expect(recreateModeOf('persistent-sequential-ttl')).toBe('persistent-ttl');
    for (const mode of ['persistent', 'ephemeral', 'container', 'persistent-ttl'] as const) {
      expect(recreateModeOf(mode)).toBe(mode);
    }
  });

  it('classifies every mode', () => {
    expect(PERSISTENT_NODE_MODES.filter(isSequentialMode)).toEqual([
      'persistent-sequential',
      'ephemeral-sequential',
      'persistent-sequential-ttl',
    ]);
    expect(PERSISTENT_NODE_MODES.filter(isEphemeralMode)).toEqual(['ephemeral', 'ephemeral-sequential']);
    expect(PERSISTENT_NODE_MODES.filter(isTtlMode)).toEqual(['persistent-ttl', 'persistent-sequential-ttl']);
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/a')).toBe('/');
  });

  it('applies Curator’s defaults and makes one protection prefix per node', () => {
    const settings = persistentNodeSettings('/g/m-', {
      mode: 'ephemeral-sequential',
      data: 'x',
      useProtection: true,
    });
    expect(settings.useParentCreation).toBe(true);
    expect(settings.keepOnClose).toBe(false);
    expect(settings.protectionPrefix).toMatch(/^_c_[0-9a-f-]{36}-$/);
    expect(Array.from(settings.data)).toEqual([0x78]);
    const other = persistentNodeSettings('/g/m-', {
      mode: 'ephemeral-sequential',
      data: 'x',
      useProtection: true,
    });
    expect(other.protectionPrefix).not.toBe(settings.protectionPrefix);
    expect(persistentNodeSettings('/g', { mode: 'persistent', data: '' }).protectionPrefix).toBeUndefined();
  });

  it('copies the data, so a later change by the caller does not leak in', () => {
    const bytes = new Uint8Array([1, 2]);
    const settings = persistentNodeSettings('/g', { mode: 'persistent', data: bytes });
    bytes[0] = 9;
    expect(Array.from(settings.data)).toEqual([1, 2]);
  });

  it('takes TTLs only for the TTL modes, within the server’s range', () => {
    expect(persistentNodeSettings('/t', { mode: 'persistent-ttl', data: '', ttlMs: MAX_TTL_MS }).ttlMs).toBe(
      MAX_TTL_MS,
    );
    const bad = { code: 'INVALID_ARGUMENT' };
    expect(() =>
      persistentNodeSettings('/t', { mode: 'persistent-ttl', data: '', ttlMs: MAX_TTL_MS + 1 }),
    ).toThrow(expect.objectContaining(bad));
    expect(() => persistentNodeSettings('/t', { mode: 'container', data: '', ttlMs: 5 })).toThrow(
      expect.objectContaining(bad),
    );
  });

  it("takes compression 'gzip' or a provider, and refuses anything else", () => {
    expect(persistentNodeSettings('/c', { mode: 'persistent', data: '' }).compression).toBeUndefined();
    expect(
      persistentNodeSettings('/c', { mode: 'persistent', data: '', compression: 'gzip' }).compression,
    ).toBeDefined();
    for (const compression of ['zstd', true, {}]) {
      expect(() =>
        persistentNodeSettings('/c', { mode: 'persistent', data: '', compression: compression as never }),
      ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });
});
