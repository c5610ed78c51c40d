import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode } from './codec';
import { decodeConnectResponse } from './connect-response';
import { OpCode, Xid } from './constants';
import { JuteCodecError } from './errors';
import { encodeConnectRequest, encodeRequestFrame } from './frame-writer';
import { records } from './records';
import { arbitraryOf } from './testing/arbitraries';

const hex = (s: string) => s.replace(/\s+/g, '');

describe('encodeRequestFrame', () => {
  it('builds the byte examples of wire-protocol.md §13', () => {
    expect(encodeRequestFrame(Xid.PING, OpCode.ping).toString('hex')).toBe(hex('00000008 fffffffe 0000000b'));
    expect(encodeRequestFrame(7, OpCode.closeSession).toString('hex')).toBe(
      hex('00000008 00000007 fffffff5'),
    );
    expect(
      encodeRequestFrame(1, OpCode.getData, records.GetDataRequest, { path: '/a', watch: true }).toString(
        'hex',
      ),
    ).toBe(hex('0000000f 00000001 00000004 00000002 2f61 01'));
  });

  it('builds the digest auth frame of wire-protocol.md §10.1', () => {
    const frame = encodeRequestFrame(Xid.AUTH, OpCode.auth, records.AuthPacket, {
      type: 0,
      scheme: 'digest',
      auth: Buffer.from('bob:secret'),
    });
    expect(frame.toString('hex')).toBe(
      hex(
        `00000024 fffffffc 00000064 00000000 00000006 ${Buffer.from('digest').toString('hex')}
         0000000a ${Buffer.from('bob:secret').toString('hex')}`,
      ),
    );
  });

  it('fills in the length prefix (one allocation per frame: frame-allocations.test.ts)', () => {
    const frame = encodeRequestFrame(3, OpCode.delete, records.DeleteRequest, { path: '/x', version: -1 });
    expect(frame.toString('hex')).toBe(hex('00000012 00000003 00000002 00000002 2f78 ffffffff'));
  });

  it('refuses bad xids, opcodes and values before producing bytes', () => {
    expect(() => encodeRequestFrame(2 ** 31, OpCode.ping)).toThrow(JuteCodecError);
    expect(() => encodeRequestFrame(1, Number.NaN)).toThrow(/opCode/);
    expect(() =>
      encodeRequestFrame(1, OpCode.getData, records.GetDataRequest, { path: '/a' } as never),
    ).toThrow(/GetDataRequest\.watch is missing/);
    expect(() => encodeRequestFrame(1, OpCode.getData, records.GetDataRequest)).toThrow(/value is required/);
  });
});

describe('connect handshake', () => {
  const request = {
    protocolVersion: 0,
    lastZxidSeen: 0n,
    timeOut: 30000,
    sessionId: 0n,
    passwd: Buffer.alloc(16),
    readOnly: false,
  };

  it('encodes the 49-byte frame of wire-protocol.md §2.1', () => {
    expect(encodeConnectRequest(request).toString('hex')).toBe(
      hex(`0000002d 00000000 ${'00'.repeat(8)} 00007530 ${'00'.repeat(8)} 00000010 ${'00'.repeat(16)} 00`),
    );
    expect(encodeConnectRequest({ ...request, readOnly: true }).at(-1)).toBe(1);
    expect(() => encodeConnectRequest({ ...request, readOnly: undefined as never })).toThrow(/readOnly/);
  });

  const response = Buffer.from(hex(`00000000 00002710 0123456789abcdef 00000010 ${'ab'.repeat(16)}`), 'hex');

  it('decodes a response with and without the readOnly byte', () => {
    const withoutByte = decodeConnectResponse(response);
    expect(withoutByte).toMatchObject({ protocolVersion: 0, timeOut: 10000, sessionId: 0x0123456789abcdefn });
    expect(withoutByte.readOnly).toBe(false);
    expect([...withoutByte.passwd!]).toEqual(new Array(16).fill(0xab));
    expect(decodeConnectResponse(Buffer.concat([response, Buffer.from([1])])).readOnly).toBe(true);
    expect(decodeConnectResponse(Buffer.concat([response, Buffer.from([0])])).readOnly).toBe(false);
  });

  it('writes and reads at fixed offsets exactly what the record layouts do', () => {
    fc.assert(
      fc.property(arbitraryOf(records.ConnectRequest.layout), fc.boolean(), (value, readOnly) => {
        const body = encode(records.ConnectRequest, value);
        const expected = Buffer.concat([Buffer.alloc(4), body, Buffer.from([readOnly ? 1 : 0])]);
        expected.writeInt32BE(body.length + 1, 0);
        expect(encodeConnectRequest({ ...value, readOnly })).toEqual(expected);
      }),
    );
    fc.assert(
      fc.property(
        arbitraryOf(records.ConnectResponse.layout),
        fc.constantFrom(undefined, 0, 1, 7),
        (value, readOnlyByte) => {
          const body = encode(records.ConnectResponse, value);
          const payload =
            readOnlyByte === undefined ? body : Buffer.concat([body, Buffer.from([readOnlyByte])]);
          const decoded = decodeConnectResponse(payload);
          expect(decoded).toEqual({ ...decode(records.ConnectResponse, body), readOnly: !!readOnlyByte });
        },
      ),
    );
  });

  it('rejects a truncated or over-long response', () => {
    expect(() => decodeConnectResponse(response.subarray(0, 20))).toThrow(/ConnectResponse\.passwd/);
    const long = Buffer.concat([response, Buffer.from([1, 2])]);
    let error: unknown;
    try {
      decodeConnectResponse(long);
    } catch (e) {
      error = e;
    }
    expect((error as JuteCodecError).code).toBe('TRAILING_BYTES');
  });
});
