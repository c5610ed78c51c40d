// The codec against a real ZooKeeper 3.8.0 server: every operation a client uses is encoded with this
// package, sent over a bare socket, and its reply decoded; each reply body must fill its frame exactly, and
// the fast path must read every reply as the generic path does.
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddWatchMode,
  CreateFlag,
  decode,
  EventType,
  encode,
  encodeRequestFrame,
  fast,
  type JuteRecord,
  KeeperState,
  OpCode,
  Perms,
  records,
  WatcherType,
  Xid,
} from '../src/index';
import { type Reply, WireSession } from './live/wire-session';

const OPEN = [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];
const NO_NODE = -101;

let server: ZooKeeperServer;
let session: WireSession;

beforeAll(async () => {
  server = await startZooKeeper({ jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true'] });
  session = (await WireSession.open(server.host, server.port)).session;
}, 90_000);

afterAll(async () => {
  session?.close();
  await server?.stop();
});

function body<T>(reply: Reply, record: JuteRecord<T>): T {
  expect(reply.header.err).toBe(0);
  return decode(record, reply.payload.subarray(16));
}

async function call<T>(opCode: number, record?: JuteRecord<T>, value?: T): Promise<Reply> {
  const xid = session.xid();
  return session.send(xid, encodeRequestFrame(xid, opCode, record, value));
}

describe('handshake', () => {
  it('decodes the ConnectResponse with the readOnly byte the server appends', async () => {
    const { session: other, response } = await WireSession.open(server.host, server.port);
    other.close();
    expect(response.protocolVersion).toBe(0);
    expect(response.timeOut).toBe(10_000);
    expect(response.sessionId).not.toBe(0n);
    expect(response.passwd?.length).toBe(16);
    expect(response.readOnly).toBe(false);
  });
});

describe('operations', () => {
  it('create, create2, createTTL and createContainer', async () => {
    const xid = session.xid();
    const created = await session.send(
      xid,
      fast.encodeCreateRequestFrame(
        xid,
        OpCode.create,
        '/live',
        Buffer.from('root'),
        OPEN,
        CreateFlag.PERSISTENT,
      ),
    );
    expect(body(created, records.CreateResponse)).toEqual({ path: '/live' });

    const seq = await call(OpCode.create2, records.CreateRequest, {
      path: '/live/seq-',
      data: null,
      acl: OPEN,
      flags: CreateFlag.PERSISTENT_SEQUENTIAL,
    });
    const { path, stat } = body(seq, records.Create2Response);
    expect(path).toMatch(/^\/live\/seq-\d{10}$/);
    expect(stat.dataLength).toBe(0);

    const ttl = await call(OpCode.createTTL, records.CreateTTLRequest, {
      path: '/live/ttl',
      data: Buffer.from('t'),
      acl: OPEN,
      flags: CreateFlag.PERSISTENT_WITH_TTL,
      ttl: 60_000n,
    });
    expect(body(ttl, records.Create2Response).path).toBe('/live/ttl');
    // The server keeps a TTL (and container) marker in its own ephemeralOwner but shows clients 0
    // (DataNode.copyStat); wire-protocol.md §4.4 describes the internal value.
    const ttlStat = body(
      await call(OpCode.exists, records.ExistsRequest, { path: '/live/ttl', watch: false }),
      records.ExistsResponse,
    ).stat;
    expect(ttlStat.ephemeralOwner).toBe(0n);

    const container = await call(OpCode.createContainer, records.CreateRequest, {
      path: '/live/container',
      data: null,
      acl: OPEN,
      flags: CreateFlag.CONTAINER,
    });
    expect(body(container, records.Create2Response)).toMatchObject({ path: '/live/container' });
  });

  it('getData reads data and a -1 (null) buffer back, on both paths', async () => {
    const xid = session.xid();
    const reply = await session.send(xid, fast.encodeGetDataRequestFrame(xid, '/live', false));
    const generic = body(reply, records.GetDataResponse);
    expect(String(generic.data)).toBe('root');
    expect(generic.stat.dataLength).toBe(4);
    expect(fast.decodeGetDataResponse(reply.payload, 16, reply.payload.length)).toEqual(generic);

    const seqName = body(
      await call(OpCode.getChildren, records.GetChildrenRequest, { path: '/live', watch: false }),
      records.GetChildrenResponse,
    ).children!.find((c) => c?.startsWith('seq-'));
    const nullData = await call(OpCode.getData, records.GetDataRequest, {
      path: `/live/${seqName}`,
      watch: false,
    });
    expect(body(nullData, records.GetDataResponse).data).toBeNull();
  });

  it('an error reply is a header with the code and no body', async () => {
    const reply = await call(OpCode.getData, records.GetDataRequest, { path: '/live/missing', watch: false });
    expect(reply.header.err).toBe(NO_NODE);
    expect(reply.payload.length).toBe(16);
  });

  it('exists with a watch, then setData: the event comes before the reply', async () => {
    const xid = session.xid();
    const exists = await session.send(xid, fast.encodeExistsRequestFrame(xid, '/live', true));
    const { stat } = body(exists, records.ExistsResponse);
    expect(fast.decodeExistsResponse(exists.payload, 16)).toEqual({ stat });

    const setXid = session.xid();
    const set = await session.send(
      setXid,
      fast.encodeSetDataRequestFrame(setXid, '/live', Buffer.from('v2'), stat.version),
    );
    const after = body(set, records.SetDataResponse);
    expect(after.stat.version).toBe(stat.version + 1);
    expect(fast.decodeSetDataResponse(set.payload, 16)).toEqual(after);

    const eventIndex = session.seen.findIndex((s) => s.kind === 'event' && s.event.path === '/live');
    const replyIndex = session.seen.findIndex((s) => s.kind === 'reply' && s.xid === setXid);
    expect(eventIndex).toBeGreaterThanOrEqual(0);
    expect(eventIndex).toBeLessThan(replyIndex);
    expect(session.events.at(-1)).toEqual({
      type: EventType.NodeDataChanged,
      state: KeeperState.SyncConnected,
      path: '/live',
    });
  });

  it('getChildren, getChildren2, getAllChildrenNumber', async () => {
    const xid = session.xid();
    const children = await session.send(xid, fast.encodeGetChildrenRequestFrame(xid, '/live', false));
    const generic = body(children, records.GetChildrenResponse);
    expect([...generic.children!].sort().filter((c) => !c!.startsWith('seq-'))).toEqual(['container', 'ttl']);
    expect(fast.decodeGetChildrenResponse(children.payload, 16)).toEqual(generic);

    const two = body(
      await call(OpCode.getChildren2, records.GetChildren2Request, { path: '/live', watch: false }),
      records.GetChildren2Response,
    );
    expect(two.stat.numChildren).toBe(3);
    const count = body(
      await call(OpCode.getAllChildrenNumber, records.GetAllChildrenNumberRequest, { path: '/live' }),
      records.GetAllChildrenNumberResponse,
    );
    expect(count.totalNumber).toBe(3);
  });

  it('getACL and setACL', async () => {
    const acl = body(
      await call(OpCode.getACL, records.GetACLRequest, { path: '/live' }),
      records.GetACLResponse,
    );
    expect(acl.acl).toEqual(OPEN);
    const readOnly = [{ perms: Perms.READ | Perms.ADMIN, id: { scheme: 'world', id: 'anyone' } }];
    const set = await call(OpCode.setACL, records.SetACLRequest, {
      path: '/live/ttl',
      acl: readOnly,
      version: -1,
    });
    expect(body(set, records.SetACLResponse).stat.aversion).toBe(1);
    expect(
      body(await call(OpCode.getACL, records.GetACLRequest, { path: '/live/ttl' }), records.GetACLResponse)
        .acl,
    ).toEqual(readOnly);
  });

  it('sync echoes the path', async () => {
    expect(
      body(await call(OpCode.sync, records.SyncRequest, { path: '/live' }), records.SyncResponse),
    ).toEqual({ path: '/live' });
  });

  it('ephemerals: create, then getEphemerals lists them', async () => {
    await call(OpCode.create, records.CreateRequest, {
      path: '/live/eph',
      data: null,
      acl: OPEN,
      flags: CreateFlag.EPHEMERAL,
    });
    const list = body(
      await call(OpCode.getEphemerals, records.GetEphemeralsRequest, { prefixPath: '/live' }),
      records.GetEphemeralsResponse,
    );
    expect(list.ephemerals).toEqual(['/live/eph']);
  });

  it('auth (xid -4) and whoAmI', async () => {
    const auth = await session.send(
      Xid.AUTH,
      encodeRequestFrame(Xid.AUTH, OpCode.auth, records.AuthPacket, {
        type: 0,
        scheme: 'digest',
        auth: Buffer.from('bob:secret'),
      }),
    );
    expect(auth.header).toMatchObject({ xid: Xid.AUTH, err: 0 });
    const who = body(await call(OpCode.whoAmI), records.WhoAmIResponse);
    expect(who.clientInfo).toContainEqual({ authScheme: 'digest', user: 'bob' });
    expect(who.clientInfo).toContainEqual({ authScheme: 'ip', user: '127.0.0.1' });
  });

  it('addWatch answers ErrorResponse {0}; checkWatches and removeWatches find it', async () => {
    const add = await call(OpCode.addWatch, records.AddWatchRequest, {
      path: '/live/pw',
      mode: AddWatchMode.PERSISTENT,
    });
    expect(body(add, records.ErrorResponse)).toEqual({ err: 0 });
    const check = await call(OpCode.checkWatches, records.CheckWatchesRequest, {
      path: '/live/pw',
      type: WatcherType.Any,
    });
    expect(check.header.err).toBe(0);
    const remove = await call(OpCode.removeWatches, records.RemoveWatchesRequest, {
      path: '/live/pw',
      type: WatcherType.Any,
    });
    expect(remove.header.err).toBe(0);
    const again = await call(OpCode.checkWatches, records.CheckWatchesRequest, {
      path: '/live/pw',
      type: WatcherType.Any,
    });
    expect(again.header.err).toBe(-121);
  });

  it('SetWatches2 with an old zxid fires the missed change at once', async () => {
    const before = session.events.length;
    const reply = await call(OpCode.setWatches2, records.SetWatches2, {
      relativeZxid: 1n,
      dataWatches: ['/live'],
      existWatches: [],
      childWatches: [],
      persistentWatches: [],
      persistentRecursiveWatches: [],
    });
    expect(reply.header.err).toBe(0);
    const events = await session.eventsUntil(before + 1);
    expect(events[before]).toEqual({
      type: EventType.NodeDataChanged,
      state: KeeperState.SyncConnected,
      path: '/live',
    });
  });

  it('multi: MultiHeader-framed ops and results', async () => {
    const op = <T>(type: number, record: JuteRecord<T>, value: T) =>
      Buffer.concat([encode(records.MultiHeader, { type, done: false, err: -1 }), encode(record, value)]);
    const ops = Buffer.concat([
      op(OpCode.check, records.CheckVersionRequest, { path: '/live', version: 1 }),
      op(OpCode.create, records.CreateRequest, { path: '/live/m', data: null, acl: OPEN, flags: 0 }),
      op(OpCode.setData, records.SetDataRequest, { path: '/live/m', data: Buffer.from('m'), version: 0 }),
      op(OpCode.delete, records.DeleteRequest, { path: '/live/m', version: 1 }),
      encode(records.MultiHeader, { type: -1, done: true, err: -1 }),
    ]);
    const xid = session.xid();
    const frame = Buffer.concat([encodeRequestFrame(xid, OpCode.multi), ops]);
    frame.writeInt32BE(frame.length - 4, 0);
    const reply = await session.send(xid, frame);
    expect(reply.header.err).toBe(0);

    const results: { type: number; err: number }[] = [];
    let offset = 16;
    for (;;) {
      const { value: header, offset: next } = records.MultiHeader.decode(reply.payload, offset);
      offset = next;
      if (header.done) break;
      results.push({ type: header.type, err: header.err });
      if (header.type === OpCode.create) offset = records.CreateResponse.decode(reply.payload, offset).offset;
      if (header.type === OpCode.setData)
        offset = records.SetDataResponse.decode(reply.payload, offset).offset;
    }
    expect(offset).toBe(reply.payload.length);
    expect(results).toEqual([
      { type: OpCode.check, err: 0 },
      { type: OpCode.create, err: 0 },
      { type: OpCode.setData, err: 0 },
      { type: OpCode.delete, err: 0 },
    ]);
  });

  it('delete, ping and closeSession', async () => {
    const xid = session.xid();
    const deleted = await session.send(xid, fast.encodeDeleteRequestFrame(xid, '/live/container', -1));
    expect(deleted.header.err).toBe(0);
    const ping = await session.send(Xid.PING, encodeRequestFrame(Xid.PING, OpCode.ping));
    expect(ping.header).toMatchObject({ xid: Xid.PING, err: 0 });
    const close = await call(OpCode.closeSession);
    expect(close.header.err).toBe(0);
    expect(close.payload.length).toBe(16);
  });

  it('the fast ReplyHeader decoder reads every payload the server sent as the generic one does', () => {
    expect(session.payloads.length).toBeGreaterThan(20);
    for (const payload of session.payloads) {
      expect(fast.decodeReplyHeader(payload, 0)).toEqual(
        records.ReplyHeader.decode(payload, 0, payload.length).value,
      );
    }
  });
});
