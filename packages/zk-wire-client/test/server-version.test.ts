/**
 * Version gating against a real 3.8.0 server when the `srvr` probe fails. 3.8.0 always allows `srvr` (its
 * whitelist cannot leave it out: zkServer.sh needs it), so the probe is made to fail by the fault proxy
 * refusing new connections once the session's connection is up. Gated calls still work, and an opcode the
 * server lacks (made here by rewriting whoAmI's opcode on the way to the server; the server answers -6
 * Unimplemented and closes the connection) fails as UnsupportedByServerError while the session lives on.
 */
import { nextState } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import {
  connect,
  createClient,
  InvalidArgumentError,
  UnimplementedError,
  UnsupportedByServerError,
} from '../src/index.js';
import { failOnProcessErrors, frameTap, recordStates, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();

const fixture = useProxiedServer();

const WHO_AM_I = 107;
/** An opcode no ZooKeeper release has. */
const UNKNOWN_OPCODE = 999;

describe('version gating without srvr', () => {
  it('runs gated calls when the version cannot be learnt', async () => {
    await using zk = await connect({ connectString: fixture.proxy.connectString });
    const states = recordStates(zk);
    const accepted = fixture.proxy.totalConnections;
    fixture.proxy.refuse(true);
    try {
      expect(await zk.whoAmI()).toEqual([{ authScheme: 'ip', user: '127.0.0.1' }]);
      expect(await zk.getAllChildrenNumber('/')).toBeGreaterThan(0);
    } finally {
      fixture.proxy.refuse(false);
    }
    expect(zk.serverVersion).toBeUndefined();
    // No probe got through, and the session's own connection never dropped.
    expect(fixture.proxy.totalConnections).toBe(accepted);
    expect(states).toEqual([]);
  });

  it("turns an old server's -6 Unimplemented into UnsupportedByServerError; the session lives on", async () => {
    await using zk = await connect({ connectString: fixture.proxy.connectString });
    const sessionId = zk.sessionId;
    const states = recordStates(zk);
    const reconnected = nextState(zk, 'reconnected');
    fixture.proxy.refuse(true);
    fixture.proxy.corrupt('toServer', (chunk) => {
      if (chunk.length >= 12 && chunk.readInt32BE(8) === WHO_AM_I) {
        const copy = Buffer.from(chunk);
        copy.writeInt32BE(UNKNOWN_OPCODE, 8);
        return copy;
      }
      return chunk;
    });
    const error = await zk.whoAmI().catch((e: unknown) => e);
    fixture.proxy.clearCorruption();
    fixture.proxy.refuse(false);
    expect(zk.serverVersion).toBeUndefined();
    expect(error).toBeInstanceOf(UnsupportedByServerError);
    expect(error).toMatchObject({ requiredVersion: '3.7.0', serverVersion: undefined });
    expect((error as Error).cause).toBeInstanceOf(UnimplementedError);
    // The server closed that connection; the client reconnects to the same session.
    await reconnected;
    expect(await zk.exists('/')).not.toBeNull();
    expect(zk.sessionId).toBe(sessionId);
    expect(states).toEqual(['suspended', 'reconnected']);
    expect(await zk.whoAmI()).toHaveLength(1);
  });
});

describe('a declared serverVersion (Curator 5.7 ZookeeperCompatibility)', () => {
  const ADD_WATCH = 106;

  it('decides gated calls before anything is sent, without asking the server', async () => {
    const tap = frameTap();
    await using zk = await connect({
      connectString: fixture.server.connectString,
      serverVersion: '3.5.10',
      connectionFactory: tap.factory,
    });
    expect(zk.serverVersion).toBe('3.5.10');
    await expect(zk.addWatch('/', 'persistent', () => {})).rejects.toMatchObject({
      code: 'UNSUPPORTEDBYSERVER',
      requiredVersion: '3.6.0',
      serverVersion: '3.5.10',
    });
    await expect(zk.whoAmI()).rejects.toBeInstanceOf(UnsupportedByServerError);
    expect(await zk.exists('/')).not.toBeNull(); // the session lives on
    expect(tap.frames.map((frame) => frame.opcode)).not.toContain(ADD_WATCH);
    expect(tap.frames.map((frame) => frame.opcode)).not.toContain(WHO_AM_I);
    expect(tap.connections).toBe(1); // no srvr connection
  });

  it('refuses a serverVersion that is not a version, before connecting', () => {
    expect(() =>
      createClient({ connectString: fixture.server.connectString, serverVersion: 'latest' }),
    ).toThrow(InvalidArgumentError);
  });
});
