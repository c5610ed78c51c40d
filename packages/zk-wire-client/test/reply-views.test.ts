/**
 * Replies are read into one buffer shared by every connection and handed to the decoders as views of it, not
 * copies (transport/connection.ts): the next read overwrites those bytes. So whatever a call returns that
 * outlives the read (data, a multiRead's data, the session password) must be the caller's own copy. These
 * tests hold such values across many later reads of other bytes and check that each is still right.
 */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, op, type ZooKeeperClient } from '../src/index.js';

let server: ZooKeeperServer;
let zk: ZooKeeperClient;

const NODES = 40;
/** Each node's value: its own byte, repeated, so an overwritten value cannot pass for the right one. */
const nodeValue = (i: number) => Buffer.alloc(300, 0x20 + i);

beforeAll(async () => {
  server = await startZooKeeper();
  zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 10_000 });
  await zk.create('/views', null);
  await Promise.all(Array.from({ length: NODES }, (_, i) => zk.create(`/views/n${i}`, nodeValue(i))));
  await zk.create('/views-other', Buffer.alloc(300, 0xee));
});
afterAll(async () => {
  await zk?.close();
  await server?.[Symbol.asyncDispose]();
});

/** Many reads of bytes unlike every held value, in one burst and one by one, so the read buffer is rewritten. */
async function readOtherBytes(): Promise<void> {
  await Promise.all(Array.from({ length: 500 }, () => zk.getData('/views-other')));
  for (let i = 0; i < 50; i++) await zk.getData('/views-other');
}

describe('values kept past their read', () => {
  it('getData results, read many in one read, stay intact through later reads', async () => {
    const results = await Promise.all(Array.from({ length: NODES }, (_, i) => zk.getData(`/views/n${i}`)));
    await readOtherBytes();
    results.forEach((result, i) => {
      expect(result.data.equals(nodeValue(i))).toBe(true);
    });
  });

  it("a multiRead's data and a multi's create paths stay intact through later reads", async () => {
    const read = await zk.multiRead(
      Array.from({ length: 10 }, (_, i) => ({ type: 'getData' as const, path: `/views/n${i}` })),
    );
    const created = await zk.multi([op.create('/views/made-a', null), op.create('/views/made-b', null)]);
    await readOtherBytes();
    read.forEach((outcome, i) => {
      expect(outcome).toMatchObject({ type: 'getData' });
      expect((outcome as { data: Buffer }).data.equals(nodeValue(i))).toBe(true);
    });
    expect(created).toMatchObject([{ path: '/views/made-a' }, { path: '/views/made-b' }]);
  });

  it('empty and null data read as an empty buffer, never a view of the read buffer', async () => {
    await zk.create('/views/empty', Buffer.alloc(0));
    await zk.create('/views/null', null);
    const [empty, none, multiRead] = await Promise.all([
      zk.getData('/views/empty'),
      zk.getData('/views/null'),
      zk.multiRead([{ type: 'getData', path: '/views/empty' }]),
    ]);
    await readOtherBytes();
    const read = (multiRead[0] as { data: Buffer }).data;
    for (const data of [empty.data, none.data, read]) {
      expect(Buffer.isBuffer(data)).toBe(true);
      expect(data.length).toBe(0);
      // A view of the shared read buffer would sit in an ArrayBuffer of 64 KiB or more.
      expect(data.buffer.byteLength).toBe(0);
    }
    expect(empty.stat.dataLength).toBe(0);
  });

  it('the session password stays right through later reads: another connection reattaches with it', async () => {
    const owner = await connect({ connectString: server.connectString, sessionTimeoutMs: 10_000 });
    const again = await (async () => {
      try {
        await readOtherBytes();
        // The server refuses a wrong password (SessionExpired), so a rewritten one fails here.
        return await connect({
          connectString: server.connectString,
          session: { id: owner.sessionId, password: owner.sessionPassword },
        });
      } catch (error) {
        await owner.close();
        throw error;
      }
    })();
    expect(again.sessionId).toBe(owner.sessionId);
    await again.close();
    await owner.close();
  });
});
