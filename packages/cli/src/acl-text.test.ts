import { Perms } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { aclLines, parseAclText } from './acl-text.js';
import { UsageError } from './errors.js';

describe('ACL text', () => {
  it("parses zkCli's scheme:id:perms list, ids with colons included", () => {
    expect(parseAclText('world:anyone:cdrwa,digest:bob:abc=:rw,ip:10.0.0.0/8:r,auth::a')).toEqual([
      { perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } },
      { perms: Perms.READ | Perms.WRITE, id: { scheme: 'digest', id: 'bob:abc=' } },
      { perms: Perms.READ, id: { scheme: 'ip', id: '10.0.0.0/8' } },
      { perms: Perms.ADMIN, id: { scheme: 'auth', id: '' } },
    ]);
  });

  it('refuses entries without perms and unknown letters', () => {
    expect(() => parseAclText('world:anyone')).toThrow(UsageError);
    expect(() => parseAclText('world:anyone:rx')).toThrow(/bad permissions "rx"/);
  });

  it('formats entries as zkCli getAcl does', () => {
    expect(aclLines([{ perms: Perms.READ | Perms.CREATE, id: { scheme: 'ip', id: '127.0.0.1' } }])).toEqual([
      "'ip,'127.0.0.1",
      ': cr',
    ]);
  });
});
