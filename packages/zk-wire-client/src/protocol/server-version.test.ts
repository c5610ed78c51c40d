import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, UnsupportedByServerError } from '../index.js';
import { atLeast, parseServerVersion, probeServerVersion } from './server-version.js';

describe('server version', () => {
  it('parses srvr output and compares versions', () => {
    expect(
      parseServerVersion('Zookeeper version: 3.8.0-5a02a05eddb59aee6ac762f7ea82e92a68eb9c0f, built on 2022'),
    ).toBe('3.8.0');
    expect(parseServerVersion('srvr is not executed because it is not in the whitelist.')).toBeUndefined();
    expect(atLeast('3.8.0', '3.6.0')).toBe(true);
    expect(atLeast('3.6.0', '3.6.0')).toBe(true);
    expect(atLeast('3.5.10', '3.6.0')).toBe(false);
    expect(atLeast('3.10.0', '3.9.1')).toBe(true);
  });

  /**
   * A scripted old server: `srvr` answers with `srvrAnswer`; a session connection gets a ConnectResponse,
   * then every request is recorded (opcode) and answered with a bare header carrying `errno(opcode)`.
   */
  function oldServer(srvrAnswer: string, errno: (opcode: number) => number) {
    const opcodes: number[] = [];
    const server = net.createServer((socket) => {
      let buffered = Buffer.alloc(0);
      let handshaken = false;
      socket.on('error', () => {});
      socket.on('data', (chunk) => {
        if (!handshaken && buffered.length === 0 && chunk.toString('latin1', 0, 4) === 'srvr') {
          socket.end(srvrAnswer);
          return;
        }
        buffered = Buffer.concat([buffered, chunk]);
        while (buffered.length >= 4 && buffered.length >= 4 + buffered.readInt32BE(0)) {
          const frame = buffered.subarray(4, 4 + buffered.readInt32BE(0));
          buffered = buffered.subarray(4 + frame.length);
          if (!handshaken) {
            handshaken = true;
            const reply = Buffer.alloc(4 + 4 + 4 + 8 + 4 + 16);
            reply.writeInt32BE(reply.length - 4, 0);
            reply.writeInt32BE(0, 4); // protocol version
            reply.writeInt32BE(30_000, 8); // timeout
            reply.writeBigInt64BE(1n, 12); // session id
            reply.writeInt32BE(16, 20); // password length (zeros follow)
            socket.write(reply);
            continue;
          }
          const xid = frame.readInt32BE(0);
          const opcode = frame.readInt32BE(4);
          if (xid === -2) continue; // ping
          opcodes.push(opcode);
          const reply = Buffer.alloc(4 + 16);
          reply.writeInt32BE(16, 0);
          reply.writeInt32BE(xid, 4);
          reply.writeBigInt64BE(0n, 8);
          reply.writeInt32BE(errno(opcode), 16);
          socket.write(reply);
        }
      });
    });
    return { server, opcodes };
  }

  const listen = async (server: net.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };
  const OLD_SRVR = 'Zookeeper version: 3.5.9-83df9301aa5c, built on 01/06/2021\nMode: standalone\n';
  const NONODE = -101;

  let old: ReturnType<typeof oldServer>;
  let port = 0;
  beforeAll(async () => {
    old = oldServer(OLD_SRVR, () => NONODE);
    port = await listen(old.server);
  });
  afterAll(() => new Promise<void>((resolve) => old.server.close(() => resolve())));

  it('probes with srvr', async () => {
    expect(await probeServerVersion({ host: '127.0.0.1', port }, {})).toBe('3.5.9');
  });

  it('refuses a feature the server lacks with an error naming the version it needs, in its place, without sending it', async () => {
    const zk = createClient({ connectString: `127.0.0.1:${port}` });
    const settled: string[] = [];
    const note = (name: string, p: Promise<unknown>) =>
      p.then(
        () => settled.push(`${name}:ok`),
        (e: { code?: string }) => settled.push(`${name}:${e.code}`),
      );
    // Issued in one tick, before the version is known: the gated calls hold their places.
    const calls = [
      note('getData', zk.getData('/a')),
      note('whoAmI', zk.whoAmI()),
      note('exists', zk.exists('/b')),
      note(
        'addWatch',
        zk.addWatch('/a', 'persistent', () => {}),
      ),
      note('delete', zk.delete('/c')),
    ];
    await Promise.all(calls);
    expect(settled).toEqual([
      'getData:NONODE',
      'whoAmI:UNSUPPORTEDBYSERVER',
      'exists:ok',
      'addWatch:UNSUPPORTEDBYSERVER',
      'delete:NONODE',
    ]);
    await expect(zk.addWatch('/a', 'persistent', () => {})).rejects.toMatchObject({
      requiredVersion: '3.6.0',
      serverVersion: '3.5.9',
      message: expect.stringMatching(/Requires ZooKeeper 3\.6\.0 or later \(server is 3\.5\.9\)/),
    });
    await expect(zk.whoAmI()).rejects.toBeInstanceOf(UnsupportedByServerError);
    expect(zk.serverVersion).toBe('3.5.9');
    // getData (4), exists (3), delete (2): whoAmI (107) and addWatch (106) never went out.
    expect(old.opcodes).toEqual([4, 3, 2]);
    await zk.close();
  });

  it('sends a gated call when the version cannot be learnt, and maps the Unimplemented answer', async () => {
    const unknown = oldServer('srvr is not executed because it is not in the whitelist.\n', (opcode) =>
      opcode === 107 ? -6 : NONODE,
    );
    const unknownPort = await listen(unknown.server);
    const zk = createClient({ connectString: `127.0.0.1:${unknownPort}` });
    const order: string[] = [];
    const first = zk.getData('/a').catch((e) => order.push(`getData:${e.code}`));
    const gated = zk.whoAmI().catch((e) => order.push(`whoAmI:${e.code}:${e.cause?.code}`));
    await Promise.all([first, gated]);
    expect(order).toEqual(['getData:NONODE', 'whoAmI:UNSUPPORTEDBYSERVER:UNIMPLEMENTED']);
    expect(unknown.opcodes).toEqual([4, 107]);
    await zk.close();
    await new Promise<void>((resolve) => unknown.server.close(() => resolve()));
  });
});
