// Reply frames captured from a real ZooKeeper 3.8.0 server (test/live/capture-server-frames.ts), decoded
// without a server: each body must fill its frame exactly, the fast path must agree, and the whole capture
// must come through the FrameReader the same however it is split.
import { describe, expect, it } from 'vitest';
import { decode } from './codec';
import { decodeConnectResponse } from './connect-response';
import { EventType, Xid } from './constants';
import { fast } from './fast';
import { FrameReader } from './frame-reader';
import type { JuteRecord } from './layouts';
import { records } from './records';
import captured from './testing/fixtures/server-frames.json' with { type: 'json' };
import { frame } from './testing/frames';

const frames = captured.frames.map((f) => ({ ...f, bytes: Buffer.from(f.payload, 'hex') }));
const byName = (name: string) => {
  const found = frames.find((f) => f.name === name);
  if (!found) throw new Error(`no captured frame ${name}`);
  return found;
};
const bodyOf = (name: string) => {
  const f = byName(name);
  return decode(records[f.record as keyof typeof records] as JuteRecord<unknown>, f.bytes.subarray(16));
};

describe(`frames captured from ${captured.server}`, () => {
  it('the ConnectResponse carries the readOnly byte', () => {
    const response = decodeConnectResponse(byName('connect').bytes);
    expect(response).toMatchObject({ protocolVersion: 0, timeOut: 10_000, readOnly: false });
    expect(response.passwd?.length).toBe(16);
    expect(response.sessionId).not.toBe(0n);
  });

  it.each(frames.filter((f) => f.name !== 'connect').map((f) => [f.name, f] as const))(
    '%s: header and body decode exactly',
    (_name, f) => {
      const header = decode(records.ReplyHeader, f.bytes.subarray(0, 16));
      expect(fast.decodeReplyHeader(f.bytes, 0)).toEqual(header);
      if (f.record === null) {
        expect(f.bytes.length).toBe(16); // header-only replies (errors, ping, auth, closeSession)
      } else {
        expect(header.err).toBe(0);
        expect(() => bodyOf(f.name)).not.toThrow();
      }
    },
  );

  it('replies carry what the requests asked for', () => {
    expect(bodyOf('create')).toEqual({ path: '/fx' });
    expect((bodyOf('create2 sequential') as { path: string }).path).toBe('/fx/s-0000000000');
    expect(String((bodyOf('getData') as { data: Buffer }).data)).toBe('hello');
    expect((bodyOf('getData empty') as { data: Buffer }).data?.length).toBe(0);
    expect(decode(records.ReplyHeader, byName('getData NoNode').bytes).err).toBe(-101);
    expect((bodyOf('setData') as { stat: { version: number; dataLength: number } }).stat).toMatchObject({
      version: 1,
      dataLength: 5,
    });
    expect(bodyOf('notification')).toEqual({ type: EventType.NodeDataChanged, state: 3, path: '/fx' });
    expect(decode(records.ReplyHeader, byName('notification').bytes.subarray(0, 16))).toMatchObject({
      xid: Xid.NOTIFICATION,
      zxid: -1n,
    });
    expect([...((bodyOf('getChildren') as { children: string[] }).children ?? [])].sort()).toEqual([
      'e',
      's-0000000000',
    ]);
    expect(bodyOf('sync')).toEqual({ path: '/fx' });
    expect(bodyOf('getAllChildrenNumber')).toEqual({ totalNumber: 2 });
    expect(bodyOf('getEphemerals')).toEqual({ ephemerals: ['/fx/e'] });
    expect(bodyOf('addWatch')).toEqual({ err: 0 });
    expect(decode(records.ReplyHeader, byName('auth').bytes)).toMatchObject({
      xid: Xid.AUTH,
      zxid: 0n,
      err: 0,
    });
    expect(decode(records.ReplyHeader, byName('ping').bytes).xid).toBe(Xid.PING);
    expect((bodyOf('whoAmI') as { clientInfo: unknown[] }).clientInfo).toContainEqual({
      authScheme: 'digest',
      user: 'bob',
    });
  });

  it('the fast decoders read the captured hot replies as the generic ones do', () => {
    for (const name of ['getData', 'getData empty']) {
      const { bytes } = byName(name);
      expect(fast.decodeGetDataResponse(bytes, 16, bytes.length)).toEqual(bodyOf(name));
    }
    for (const name of ['exists watch', 'setData', 'setACL']) {
      expect(fast.decodeExistsResponse(byName(name).bytes, 16)).toEqual(bodyOf(name));
    }
    const children = byName('getChildren').bytes;
    expect(fast.decodeGetChildrenResponse(children, 16)).toEqual(bodyOf('getChildren'));
  });

  it('the whole capture as one stream comes through the FrameReader split at every point', () => {
    const stream = Buffer.concat(frames.map((f) => frame(f.bytes)));
    const expected = frames.map((f) => f.payload);
    for (let at = 0; at <= stream.length; at++) {
      const reader = new FrameReader();
      const out = [...reader.push(stream.subarray(0, at)), ...reader.push(stream.subarray(at))];
      expect(out.map((b) => b.toString('hex'))).toEqual(expected);
    }
  });
});
