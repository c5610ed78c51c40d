import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionLossError, connect, ProtocolError, type ZooKeeperClient } from '../src/index.js';

import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

// A socket error or internal rejection that escapes the client fails the test that caused it.
failOnProcessErrors();

const fixture = useProxiedServer();
let zk: ZooKeeperClient;

beforeAll(async () => {
  zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
  await zk.create('/bad', 'x');
});
afterAll(() => zk?.close());

/** A reply frame: ReplyHeader {xid, zxid, err} and no body. */
function replyFrame(xid: number): Buffer {
  const frame = Buffer.alloc(20);
  frame.writeInt32BE(16, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeBigInt64BE(1n, 8);
  frame.writeInt32BE(0, 16);
  return frame;
}

async function reconnected(): Promise<void> {
  for await (const state of zk.states()) if (state === 'reconnected') return;
}

describe('bad bytes from the network end the connection, not the process', () => {
  it('a reply whose xid is not the head of the FIFO is a protocol error; the call fails ConnectionLoss', async () => {
    const back = reconnected();
    fixture.proxy.corrupt('toClient', () => replyFrame(123456), true);
    const call = zk.getData('/bad');
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionLossError);
    expect((error as Error).cause).toBeInstanceOf(ProtocolError);
    expect(String(((error as Error).cause as Error).message)).toMatch(/xid 123456/);
    await back;
    expect((await zk.getData('/bad')).data.toString()).toBe('x');
  });

  it('a negative or oversize frame length ends the connection and the session carries on', async () => {
    const session = zk.sessionId;
    for (const length of [-5, 0x7fffffff]) {
      const back = reconnected();
      fixture.proxy.corrupt(
        'toClient',
        (chunk) => {
          const bad = Buffer.from(chunk);
          bad.writeInt32BE(length, 0);
          return bad;
        },
        true,
      );
      await expect(zk.exists('/bad')).rejects.toBeInstanceOf(ConnectionLossError);
      await back;
    }
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/bad')).not.toBeNull();
  });

  it('a reply body that does not decode ends the connection', async () => {
    const back = reconnected();
    // The right xid, but the children count says 1000 strings follow and none do.
    fixture.proxy.corrupt(
      'toClient',
      (chunk) => {
        const frame = Buffer.alloc(24);
        frame.writeInt32BE(20, 0);
        frame.writeInt32BE(chunk.readInt32BE(4), 4);
        frame.writeBigInt64BE(1n, 8);
        frame.writeInt32BE(0, 16);
        frame.writeInt32BE(1000, 20);
        return frame;
      },
      true,
    );
    await expect(zk.getChildren('/bad')).rejects.toBeInstanceOf(ConnectionLossError);
    await back;
    expect(await zk.getChildren('/bad')).toEqual([]);
  });
});
