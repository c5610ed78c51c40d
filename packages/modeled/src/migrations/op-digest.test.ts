import { createHash } from 'node:crypto';
import { op } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { javaRecordOf, operationsHash } from './op-digest.js';

// The expected texts are what jute's generated toString() writes for each request record (ZooKeeper 3.9's
// ToStringOutputArchive); the interop test checks the hashes against curator-x-async itself.
describe('javaRecordOf (jute record toString)', () => {
  it('writes a create with the open ACL by default', () => {
    expect(javaRecordOf(op.create('/a', 'hi'))).toEqual({
      type: 1,
      record: "'/a,#6869,v{s{31,s{'world,'anyone}}},0\n",
    });
  });

  it('writes signed bytes as Integer.toHexString does, and empty data as nothing', () => {
    const record = javaRecordOf(op.setData('/b', Uint8Array.of(0x00, 0x0f, 0x7f, 0x80, 0xff), 3)).record;
    expect(record).toBe("'/b,#0f7fffffff80ffffffff,3\n");
    expect(javaRecordOf(op.setData('/b', null)).record).toBe("'/b,,-1\n");
  });

  it('escapes the characters jute escapes in strings', () => {
    const acl = [{ perms: 1, id: { scheme: 'digest', id: 'u,%}\n' } }];
    expect(javaRecordOf(op.create('/c', null, { acl, mode: 'ephemeral-sequential' })).record).toBe(
      "'/c,,v{s{1,s{'digest,'u%2C%25%7D%0A}}},3\n",
    );
  });

  it('uses the container and TTL op codes and the TTL record', () => {
    expect(javaRecordOf(op.create('/d', null, { mode: 'container' })).type).toBe(19);
    expect(javaRecordOf(op.create('/d', null, { mode: 'persistent-ttl', ttlMs: 5000 }))).toEqual({
      type: 21,
      record: "'/d,,v{s{31,s{'world,'anyone}}},5,5000\n",
    });
  });

  it('writes delete and check records', () => {
    expect(javaRecordOf(op.delete('/e', 2))).toEqual({ type: 2, record: "'/e,2\n" });
    expect(javaRecordOf(op.check('/e', -1))).toEqual({ type: 13, record: "'/e,-1\n" });
  });
});

describe('operationsHash', () => {
  it("digests path, op code and record of each op in order (curator-x-async's MigrationManager.hash)", () => {
    const ops = [op.create('/a', 'hi'), op.delete('/e', 2)];
    const expected = createHash('sha256')
      .update('/a')
      .update('1')
      .update("'/a,#6869,v{s{31,s{'world,'anyone}}},0\n")
      .update('/e')
      .update('2')
      .update("'/e,2\n")
      .digest();
    expect(Buffer.from(operationsHash(ops)).equals(expected)).toBe(true);
    expect(operationsHash([])).toEqual(new Uint8Array(createHash('sha256').digest()));
  });
});
