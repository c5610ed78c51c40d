import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, UnsupportedByServerError } from './index.js';
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

  // A listener that answers `srvr` like an old server, and never completes a session handshake.
  let old: net.Server;
  let port = 0;
  beforeAll(async () => {
    old = net.createServer((socket) => {
      socket.once('data', (chunk) => {
        if (chunk.toString('latin1', 0, 4) === 'srvr')
          socket.end('Zookeeper version: 3.5.9-83df9301aa5c, built on 01/06/2021\nMode: standalone\n');
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    port = (old.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => old.close(() => resolve())));

  it('probes with srvr', async () => {
    expect(await probeServerVersion({ host: '127.0.0.1', port }, {})).toBe('3.5.9');
  });

  it('refuses a feature the server lacks with an error naming the version it needs, before sending it', async () => {
    const zk = createClient({ connectString: `127.0.0.1:${port}` });
    await expect(zk.whoAmI()).rejects.toBeInstanceOf(UnsupportedByServerError);
    await expect(zk.addWatch('/a', 'persistent', () => {})).rejects.toMatchObject({
      requiredVersion: '3.6.0',
      serverVersion: '3.5.9',
      message: expect.stringMatching(/Requires ZooKeeper 3\.6\.0 or later \(server is 3\.5\.9\)/),
    });
    expect(zk.serverVersion).toBe('3.5.9');
    await zk.close();
  });
});
