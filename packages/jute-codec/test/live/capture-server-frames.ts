// Captures reply frames from a real ZooKeeper server into src/testing/fixtures/server-frames.json, so the
// unit tests decode real server bytes without starting a server. Re-run after changing the sequence:
//   npx tsx packages/jute-codec/test/live/capture-server-frames.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findZooKeeper, startZooKeeper } from '@zkwire/testing';
import {
  AddWatchMode,
  CreateFlag,
  encodeRequestFrame,
  type JuteRecord,
  OpCode,
  Perms,
  records,
  Xid,
} from '../../src/index';
import { WireSession } from './wire-session';

const OPEN = [{ perms: Perms.ALL, id: { scheme: 'world', id: 'anyone' } }];

/** One captured reply: what was asked, which record its body is, and the payload as hex. */
export interface CapturedFrame {
  name: string;
  record: string | null;
  payload: string;
}

async function capture(): Promise<{ server: string; frames: CapturedFrame[] }> {
  await using server = await startZooKeeper();
  const frames: CapturedFrame[] = [];
  const open = await WireSession.open(server.host, server.port);
  const session = open.session;
  try {
    frames.push({
      name: 'connect',
      record: 'ConnectResponse',
      payload: open.rawConnectResponse.toString('hex'),
    });
    const ask = async <T>(
      name: string,
      opCode: number,
      record: JuteRecord<T> | undefined,
      value: T | undefined,
      reply: string | null,
      xid = session.xid(),
    ) => {
      const got = await session.send(xid, encodeRequestFrame(xid, opCode, record, value));
      frames.push({ name, record: reply, payload: got.payload.toString('hex') });
      return got;
    };
    await ask(
      'create',
      OpCode.create,
      records.CreateRequest,
      { path: '/fx', data: Buffer.from('hello'), acl: OPEN, flags: 0 },
      'CreateResponse',
    );
    await ask(
      'create2 sequential',
      OpCode.create2,
      records.CreateRequest,
      { path: '/fx/s-', data: null, acl: OPEN, flags: CreateFlag.PERSISTENT_SEQUENTIAL },
      'Create2Response',
    );
    await ask(
      'create ephemeral',
      OpCode.create,
      records.CreateRequest,
      { path: '/fx/e', data: Buffer.alloc(0), acl: OPEN, flags: CreateFlag.EPHEMERAL },
      'CreateResponse',
    );
    await ask(
      'getData',
      OpCode.getData,
      records.GetDataRequest,
      { path: '/fx', watch: false },
      'GetDataResponse',
    );
    await ask(
      'getData empty',
      OpCode.getData,
      records.GetDataRequest,
      { path: '/fx/e', watch: false },
      'GetDataResponse',
    );
    await ask(
      'getData NoNode',
      OpCode.getData,
      records.GetDataRequest,
      { path: '/fx/none', watch: false },
      null,
    );
    await ask(
      'exists watch',
      OpCode.exists,
      records.ExistsRequest,
      { path: '/fx', watch: true },
      'ExistsResponse',
    );
    await ask(
      'setData',
      OpCode.setData,
      records.SetDataRequest,
      { path: '/fx', data: Buffer.from('world'), version: -1 },
      'SetDataResponse',
    );
    const event = session.payloads.find((p) => p.readInt32BE(0) === Xid.NOTIFICATION);
    if (event) frames.push({ name: 'notification', record: 'WatcherEvent', payload: event.toString('hex') });
    await ask(
      'getChildren',
      OpCode.getChildren,
      records.GetChildrenRequest,
      { path: '/fx', watch: false },
      'GetChildrenResponse',
    );
    await ask(
      'getChildren2',
      OpCode.getChildren2,
      records.GetChildren2Request,
      { path: '/fx', watch: false },
      'GetChildren2Response',
    );
    await ask('getACL', OpCode.getACL, records.GetACLRequest, { path: '/fx' }, 'GetACLResponse');
    await ask(
      'setACL',
      OpCode.setACL,
      records.SetACLRequest,
      { path: '/fx', acl: OPEN, version: -1 },
      'SetACLResponse',
    );
    await ask('sync', OpCode.sync, records.SyncRequest, { path: '/fx' }, 'SyncResponse');
    await ask(
      'getAllChildrenNumber',
      OpCode.getAllChildrenNumber,
      records.GetAllChildrenNumberRequest,
      { path: '/fx' },
      'GetAllChildrenNumberResponse',
    );
    await ask(
      'getEphemerals',
      OpCode.getEphemerals,
      records.GetEphemeralsRequest,
      { prefixPath: '/' },
      'GetEphemeralsResponse',
    );
    await ask(
      'addWatch',
      OpCode.addWatch,
      records.AddWatchRequest,
      { path: '/fx', mode: AddWatchMode.PERSISTENT_RECURSIVE },
      'ErrorResponse',
    );
    await ask(
      'auth',
      OpCode.auth,
      records.AuthPacket,
      { type: 0, scheme: 'digest', auth: Buffer.from('bob:secret') },
      null,
      Xid.AUTH,
    );
    await ask('whoAmI', OpCode.whoAmI, undefined, undefined, 'WhoAmIResponse');
    await ask('ping', OpCode.ping, undefined, undefined, null, Xid.PING);
    await ask('closeSession', OpCode.closeSession, undefined, undefined, null);
  } finally {
    session.close();
  }
  return { server: `ZooKeeper ${findZooKeeper().version} standalone`, frames };
}

const out = fileURLToPath(new URL('../../src/testing/fixtures/server-frames.json', import.meta.url));
const captured = await capture();
writeFileSync(out, `${JSON.stringify(captured, null, 2)}\n`);
console.log(`wrote ${captured.frames.length} frames to ${out}`);
