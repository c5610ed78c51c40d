import { describe, expect, it } from 'vitest';
import { registerSaslAuthenticator } from '../security/sasl-hook.js';
import type { Connection } from '../transport/connection.js';
import { AuthFailedError, ClientClosedError, ConnectionLossError } from '../util/errors.js';
import { SessionAuth } from './auth.js';

/** A connection that only records what is written to it. */
function fakeConnection(): Connection & { written: Buffer[] } {
  const written: Buffer[] = [];
  return {
    written,
    address: { host: '127.0.0.1', port: 2181 },
    write: (b: Buffer) => written.push(b),
  } as never;
}

/** A reply frame: xid, zxid, err, then `body`. */
function reply(err: number, body: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32BE(7, 0);
  header.writeInt32BE(err, 12);
  return Buffer.concat([header, body]);
}

registerSaslAuthenticator('TEST-ONE-ROUND', (_options, channel) => ({
  start: async () => {
    await channel.exchange(new Uint8Array([1]));
  },
}));
const sasl = { mechanism: 'TEST-ONE-ROUND', username: 'u', password: 'p' };

describe('SessionAuth', () => {
  it('settles the SASL exchange when its reply cannot be decoded, and reports the bad bytes', async () => {
    const auth = new SessionAuth(undefined, { nextXid: () => 1 });
    const connection = fakeConnection();
    const handshake = auth.authenticate(sasl, connection, () => true);
    expect(auth.saslInProgress).toBe(true);
    // A token length of 1,000 bytes with none following.
    const bad = reply(0, Buffer.from([0, 0, 0x03, 0xe8]));
    expect(() => auth.onSaslReply(bad)).toThrow();
    const error = await handshake.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthFailedError);
    expect((error as Error).cause).toBeInstanceOf(ConnectionLossError);
    expect(auth.saslInProgress).toBe(false);
  });

  it('rejects sent and unsent credentials and the SASL exchange when the session ends', async () => {
    const auth = new SessionAuth(undefined, { nextXid: () => 1 });
    const connection = fakeConnection();
    const sent = auth.add('digest', 'a:b', connection);
    const parked = auth.add('digest', 'c:d', undefined);
    const handshake = auth.authenticate(sasl, connection, () => true);
    auth.rejectAll((operation) => new ClientClosedError({ operation }));
    await expect(sent).rejects.toBeInstanceOf(ClientClosedError);
    await expect(parked).rejects.toBeInstanceOf(ClientClosedError);
    await expect(handshake).rejects.toBeInstanceOf(AuthFailedError);
    // The credentials stay saved: a new connection sends both again.
    const next = fakeConnection();
    auth.sendAll(next);
    expect(next.written).toHaveLength(2);
  });

  it('fails only what was sent when the connection is lost; unsent credentials wait for the next one', async () => {
    const auth = new SessionAuth(undefined, { nextXid: () => 1 });
    const sent = auth.add('digest', 'a:b', fakeConnection());
    let parkedSettled = false;
    const parked = auth.add('digest', 'c:d', undefined).finally(() => (parkedSettled = true));
    auth.connectionLost(new Error('gone'));
    await expect(sent).rejects.toBeInstanceOf(ConnectionLossError);
    await Promise.resolve();
    expect(parkedSettled).toBe(false);
    const next = fakeConnection();
    auth.sendAll(next);
    expect(auth.onAuthReply(0)).toBeUndefined();
    expect(auth.onAuthReply(0)).toBeUndefined();
    await parked;
  });
});
