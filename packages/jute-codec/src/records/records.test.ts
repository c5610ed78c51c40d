import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../codec';
import { JuteCodecError } from '../errors';
import type { JuteRecord } from '../layouts';
import { arbitraryOf } from '../testing/arbitraries';
import { records, type Stat } from './index';

const stat: Stat = {
  czxid: 1n,
  mzxid: 2n,
  ctime: 1_700_000_000_000n,
  mtime: 1_700_000_000_001n,
  version: 3,
  cversion: 4,
  aversion: 5,
  ephemeralOwner: 0x8000000000000000n - 2n ** 64n,
  dataLength: 6,
  numChildren: 7,
  pzxid: 8n,
};

describe('records', () => {
  it('covers every client-facing record of zookeeper.jute', () => {
    expect(Object.keys(records).sort()).toEqual(
      [
        'ACL',
        'AddWatchRequest',
        'AuthPacket',
        'CheckVersionRequest',
        'CheckWatchesRequest',
        'ClientInfo',
        'ConnectRequest',
        'ConnectResponse',
        'Create2Response',
        'CreateRequest',
        'CreateResponse',
        'CreateTTLRequest',
        'DeleteRequest',
        'ErrorResponse',
        'ExistsRequest',
        'ExistsResponse',
        'GetACLRequest',
        'GetACLResponse',
        'GetAllChildrenNumberRequest',
        'GetAllChildrenNumberResponse',
        'GetChildren2Request',
        'GetChildren2Response',
        'GetChildrenRequest',
        'GetChildrenResponse',
        'GetDataRequest',
        'GetDataResponse',
        'GetEphemeralsRequest',
        'GetEphemeralsResponse',
        'GetSASLRequest',
        'Id',
        'MultiHeader',
        'ReconfigRequest',
        'RemoveWatchesRequest',
        'ReplyHeader',
        'RequestHeader',
        'SetACLRequest',
        'SetACLResponse',
        'SetDataRequest',
        'SetDataResponse',
        'SetSASLResponse',
        'SetWatches',
        'SetWatches2',
        'Stat',
        'SyncRequest',
        'SyncResponse',
        'WatcherEvent',
        'WhoAmIResponse',
      ].sort(),
    );
    for (const [key, record] of Object.entries(records)) expect(record.name).toBe(key);
  });

  it('Stat is 68 bytes in .jute field order', () => {
    const bytes = encode(records.Stat, stat);
    expect(bytes.length).toBe(68);
    expect(bytes.readBigInt64BE(16)).toBe(stat.ctime);
    expect(bytes.readInt32BE(32)).toBe(3);
    expect(bytes.readBigInt64BE(44)).toBe(stat.ephemeralOwner);
    expect(bytes.readBigInt64BE(60)).toBe(8n);
    expect(decode(records.Stat, bytes)).toEqual(stat);
  });

  it('ReplyHeader is xid, zxid, err', () => {
    const bytes = Buffer.from('ffffffff ffffffffffffffff 00000000'.replace(/ /g, ''), 'hex');
    expect(decode(records.ReplyHeader, bytes)).toEqual({ xid: -1, zxid: -1n, err: 0 });
  });

  it('AuthPacket matches the digest example of wire-protocol.md §10.1', () => {
    const body = encode(records.AuthPacket, { type: 0, scheme: 'digest', auth: Buffer.from('bob:secret') });
    expect(body.toString('hex')).toBe(
      `00000000 00000006 ${Buffer.from('digest').toString('hex')} 0000000a ${Buffer.from('bob:secret').toString('hex')}`.replace(
        / /g,
        '',
      ),
    );
  });

  it('CreateRequest carries path, data, acl vector and flags', () => {
    const value = {
      path: '/q/item-',
      data: Buffer.from([1, 2]),
      acl: [{ perms: 31, id: { scheme: 'world', id: 'anyone' } }],
      flags: 2,
    };
    const bytes = encode(records.CreateRequest, value);
    expect(bytes.toString('hex')).toBe(
      [
        '00000008',
        Buffer.from('/q/item-').toString('hex'),
        '00000002',
        '0102',
        '00000001',
        '0000001f',
        '00000005',
        Buffer.from('world').toString('hex'),
        '00000006',
        Buffer.from('anyone').toString('hex'),
        '00000002',
      ].join(''),
    );
    expect(decode(records.CreateRequest, bytes)).toEqual(value);
  });

  it('MultiHeader is 9 bytes', () => {
    expect(encode(records.MultiHeader, { type: -1, done: true, err: -1 }).toString('hex')).toBe(
      'ffffffff01ffffffff',
    );
  });

  it('decode refuses trailing bytes, record.decode reports where it stopped', () => {
    const bytes = Buffer.concat([encode(records.ErrorResponse, { err: -101 }), Buffer.from([0])]);
    expect(() => decode(records.ErrorResponse, bytes)).toThrow(JuteCodecError);
    expect(records.ErrorResponse.decode(bytes)).toEqual({ value: { err: -101 }, offset: 4 });
  });

  it('record.decode never reads at or past end', () => {
    const bytes = encode(records.GetDataResponse, { data: Buffer.from('abc'), stat });
    let error: unknown;
    try {
      records.GetDataResponse.decode(bytes, 0, bytes.length - 1);
    } catch (e) {
      error = e;
    }
    expect((error as JuteCodecError).code).toBe('TRUNCATED');
    expect(() => records.Stat.decode(bytes, 5, 4)).toThrow(/invalid range/);
  });

  it('every record round-trips random values (property)', () => {
    for (const record of Object.values(records) as JuteRecord<unknown>[]) {
      fc.assert(
        fc.property(arbitraryOf(record.layout), (value) => {
          const bytes = encode(record, value);
          expect(bytes.length).toBe(record.size(value));
          expect(decode(record, bytes)).toEqual(value);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('encoding writes every byte: no stale bytes from the target survive (property)', () => {
    for (const record of Object.values(records) as JuteRecord<unknown>[]) {
      fc.assert(
        fc.property(arbitraryOf(record.layout), (value) => {
          const size = record.size(value);
          const dirty = Buffer.alloc(size + 2, 0xaa);
          const clean = Buffer.alloc(size + 2, 0x00);
          expect(record.encode(value, dirty, 1)).toBe(size);
          record.encode(value, clean, 1);
          expect(dirty.subarray(1, 1 + size).equals(clean.subarray(1, 1 + size))).toBe(true);
          // and nothing outside [offset, offset + size) is touched
          expect([dirty[0], dirty[size + 1], clean[0], clean[size + 1]]).toEqual([0xaa, 0xaa, 0, 0]);
        }),
        { numRuns: 50 },
      );
    }
  });
});
