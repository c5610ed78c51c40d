import { describe, expect, it } from 'vitest';
import { aclArg, dataBytes, modeArg, ttlArg, versionArg } from './args.js';

describe('argument checks', () => {
  it('turns data into bytes and refuses data over the limit', () => {
    expect(dataBytes('hé', 10, 'create')).toEqual(Buffer.from('hé'));
    expect(dataBytes(null, 10, 'create')).toBeNull();
    expect(dataBytes(undefined, 10, 'create')).toBeNull();
    expect(() => dataBytes(Buffer.alloc(11), 10, 'setData', '/a')).toThrow(
      /11 bytes exceed the limit of 10 \(setData \/a\)/,
    );
    expect(() => dataBytes(42 as never, 10, 'create')).toThrow(/Invalid data/);
  });

  it('checks versions', () => {
    expect(versionArg(undefined, 'delete')).toBe(-1);
    expect(versionArg(3, 'delete')).toBe(3);
    for (const bad of [-2, 1.5, 2 ** 31, Number.NaN])
      expect(() => versionArg(bad, 'delete')).toThrow(/Invalid version/);
  });

  it('checks modes and TTLs together', () => {
    expect(modeArg(undefined, 'create')).toBe('persistent');
    expect(() => modeArg('nope' as never, 'create')).toThrow(/unknown create mode/);
    expect(ttlArg('persistent', undefined, 'create')).toBe(-1n);
    expect(ttlArg('persistent-ttl', 5, 'create')).toBe(5n);
    expect(ttlArg('persistent-sequential-ttl', 0xff_ffff_ffffn, 'create')).toBe(0xff_ffff_ffffn);
    expect(() => ttlArg('persistent-ttl', undefined, 'create')).toThrow(/required/);
    expect(() => ttlArg('persistent', 5, 'create')).toThrow(/only applies/);
    expect(() => ttlArg('persistent-ttl', 0, 'create')).toThrow(/from 1/);
    expect(() => ttlArg('persistent-ttl', 0x100_0000_0000n, 'create')).toThrow(/from 1/);
    expect(() => ttlArg('persistent-ttl', 1.5, 'create')).toThrow(/integer/);
  });

  it('checks ACL lists', () => {
    expect(aclArg(undefined, 'create')).toEqual([{ perms: 31, id: { scheme: 'world', id: 'anyone' } }]);
    expect(() => aclArg([], 'create')).toThrow(/non-empty/);
    expect(() => aclArg([{ perms: 64, id: { scheme: 'world', id: 'anyone' } }], 'create')).toThrow(
      /malformed/,
    );
    expect(() => aclArg([{ perms: 1 } as never], 'create')).toThrow(/malformed/);
  });
});
