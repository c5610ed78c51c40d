import { describe, expect, it } from 'vitest';
import { Perms } from '../util/acl.js';
import { InvalidArgumentError } from '../util/errors.js';
import { formatPerms, parsePerms, saslAcl, x509Acl } from './acl-ids.js';

describe('x509Acl and saslAcl', () => {
  it('build entries with all rights by default, or the given bits', () => {
    expect(x509Acl('CN=alice,OU=clients,O=Test')).toEqual({
      perms: 31,
      id: { scheme: 'x509', id: 'CN=alice,OU=clients,O=Test' },
    });
    expect(saslAcl('bob', Perms.READ | Perms.WRITE)).toEqual({ perms: 3, id: { scheme: 'sasl', id: 'bob' } });
  });

  it('refuse empty ids and impossible permission bits', () => {
    expect(() => x509Acl('')).toThrow(InvalidArgumentError);
    expect(() => saslAcl('')).toThrow(InvalidArgumentError);
    expect(() => saslAcl('bob', 32)).toThrow(InvalidArgumentError);
    expect(() => x509Acl('CN=a', -1)).toThrow(InvalidArgumentError);
    expect(() => x509Acl('CN=a', 1.5)).toThrow(InvalidArgumentError);
  });
});

describe('formatPerms / parsePerms', () => {
  it('use zkCli letters in zkCli order and round-trip every combination', () => {
    expect(formatPerms(Perms.ALL)).toBe('cdrwa');
    expect(formatPerms(Perms.READ)).toBe('r');
    expect(formatPerms(0)).toBe('');
    for (let perms = 0; perms <= Perms.ALL; perms++) expect(parsePerms(formatPerms(perms))).toBe(perms);
    expect(parsePerms('wr')).toBe(Perms.READ | Perms.WRITE);
    expect(() => parsePerms('rx')).toThrow(InvalidArgumentError);
  });
});
