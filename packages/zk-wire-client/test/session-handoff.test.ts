/**
 * Session hand-off (issue 43 §3) on a real server: `detach()` leaves the session alive for `connect({ session
 * })` to resume (in this process here; across processes and worker threads in the recipes' handoff tests),
 * a hand-off that comes after the session expired ends in SessionExpiredError, and bad hand-offs are refused
 * before anything is sent.
 */
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import { inspect } from 'node:util';
import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  connect,
  createClient,
  decodeSessionHandoff,
  encodeSessionHandoff,
  InvalidArgumentError,
  NoSessionError,
  SessionExpiredError,
  type SessionHandoff,
  type ZooKeeperClient,
} from '../src/index.js';

let server: ZooKeeperServer;
let admin: ZooKeeperClient;
beforeAll(async () => {
  // tickTime 500: the server grants session timeouts from 1 s, so an expiry comes soon.
  server = await startZooKeeper({ tickTime: 500 });
  admin = await connect({ connectString: server.connectString });
});
afterAll(async () => {
  await admin?.close();
  await server?.[Symbol.asyncDispose]();
});

/** The password of `client`'s session, in a hand-off's hex form. */
function hexPassword(client: ZooKeeperClient): string {
  return Buffer.from(client.sessionPassword).toString('hex');
}

describe('detach and resume', () => {
  it('keeps the session and its ephemeral node for the client that resumes it', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 8000 });
    await first.create('/handoff-eph', 'kept', { mode: 'ephemeral' });
    const owner = (await admin.exists('/handoff-eph'))?.ephemeralOwner;
    const password = hexPassword(first);
    const handoff = await first.detach();
    expect(handoff).toMatchObject({
      sessionId: BigInt.asUintN(64, first.sessionId).toString(16).padStart(16, '0'),
      password,
      timeoutMs: first.negotiatedTimeoutMs,
    });
    expect(first.state).toBe('closed');
    await expect(first.getData('/handoff-eph')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(first.detach()).rejects.toBeInstanceOf(ClientClosedError);
    // No closeSession went out: the node is still there, still the session's.
    expect((await admin.exists('/handoff-eph'))?.ephemeralOwner).toBe(owner);

    const second = await connect({ connectString: server.connectString, session: handoff });
    try {
      expect(second.sessionId).toBe(owner);
      expect(second.negotiatedTimeoutMs).toBe(handoff.timeoutMs);
      expect(await second.getEphemerals()).toEqual(['/handoff-eph']);
      expect((await second.getData('/handoff-eph')).data.toString()).toBe('kept');
    } finally {
      await second.close();
    }
    expect(await admin.exists('/handoff-eph')).toBeNull();
  });

  it('answers the calls made before the detach, then refuses every later one', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 8000 });
    const created = first.create('/handoff-pending', null, { mode: 'ephemeral' });
    const read = first.getChildren('/');
    const detaching = first.detach();
    const late = first.exists('/');
    await expect(created).resolves.toBe('/handoff-pending');
    await expect(read).resolves.toContain('handoff-pending');
    await expect(late).rejects.toBeInstanceOf(ClientClosedError);
    const resumed = await connect({ connectString: server.connectString, session: await detaching });
    try {
      expect(await resumed.getEphemerals()).toEqual(['/handoff-pending']);
    } finally {
      await resumed.close();
    }
  });

  it('drops the watchers and listeners of the detached client', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 8000 });
    await admin.create('/handoff-watched', 'a');
    const fired: string[] = [];
    await first.getData('/handoff-watched', { watch: (event) => fired.push(event.type) });
    const states: string[] = [];
    first.on('state', (state) => states.push(state));
    const handoff = await first.detach();
    const resumed = await connect({ connectString: server.connectString, session: handoff });
    try {
      // A watch of the resumed client set after the change, so that its event proves the change was seen.
      await admin.setData('/handoff-watched', 'b');
      // The watch is armed (the exists answered) before the create: the two sessions' requests are not
      // ordered against each other, and an exists that came after the create would watch a node that stays.
      let fire = () => {};
      const seen = new Promise<void>((resolve) => {
        fire = resolve;
      });
      expect(await resumed.exists('/handoff-watched/x', { watch: () => fire() })).toBeNull();
      await admin.create('/handoff-watched/x', null);
      await seen;
      expect(fired).toEqual([]);
      expect(states).toEqual([]);
    } finally {
      await resumed.close();
      await admin.deleteRecursive('/handoff-watched');
    }
  });

  it('goes through structured clone and the string form, never showing the password', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 8000 });
    const password = hexPassword(first);
    const handoff = await first.detach();
    for (const shown of [inspect(handoff), String(handoff), JSON.stringify(handoff), `${handoff}`]) {
      expect(shown).toContain(handoff.sessionId);
      expect(shown).not.toContain(password);
    }
    const cloned = structuredClone(handoff);
    expect({ ...cloned }).toEqual({ sessionId: handoff.sessionId, password, timeoutMs: handoff.timeoutMs });
    const encoded = encodeSessionHandoff(handoff);
    expect(encoded).toMatch(/^zkwire-session-1:[0-9a-f]{16}:[0-9a-f]{32}:\d+$/);
    const decoded = decodeSessionHandoff(encoded);
    expect({ ...decoded }).toEqual({ ...cloned });
    expect(inspect(decoded)).not.toContain(password);
    // The JSON form leaves the password out: resuming from it is refused with a hint, before connecting.
    expect(() =>
      createClient({ connectString: server.connectString, session: JSON.parse(JSON.stringify(handoff)) }),
    ).toThrow(/encodeSessionHandoff/);
    const resumed = await connect({ connectString: server.connectString, session: cloned });
    try {
      expect(inspect(resumed, { depth: 10 })).not.toContain(password);
      expect(BigInt.asUintN(64, resumed.sessionId).toString(16).padStart(16, '0')).toBe(handoff.sessionId);
    } finally {
      await resumed.close();
    }
  });

  it('never writes the password to the logger, nor to the diagnostics channels', async () => {
    const lines: string[] = [];
    const logger = {
      debug: (m: string) => lines.push(m),
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
    };
    const published: string[] = [];
    const onMessage = (message: unknown) => published.push(inspect(message, { depth: 10 }));
    const channels = [
      'zkwire:client:connect',
      'zkwire:client:state',
      'tracing:zkwire:client:request:start',
      'tracing:zkwire:client:request:asyncEnd',
    ];
    for (const name of channels) diagnostics.subscribe(name, onMessage);
    try {
      const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 8000, logger });
      const password = hexPassword(first);
      const handoff = await first.detach();
      const resumed = await connect({ connectString: server.connectString, session: handoff, logger });
      await resumed.exists('/');
      await resumed.close();
      expect(lines.length).toBeGreaterThan(0);
      expect(published.length).toBeGreaterThan(0);
      // Hex, or the bytes as inspect prints a Buffer or a Uint8Array.
      const bytes = Buffer.from(password, 'hex');
      const forms = [
        password,
        [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' '),
        bytes.join(', '),
      ];
      for (const text of [...lines, ...published]) {
        for (const form of forms) expect(text).not.toContain(form);
      }
    } finally {
      for (const name of channels) diagnostics.unsubscribe(name, onMessage);
    }
  });

  it('refuses to detach without a session, changing nothing', async () => {
    const unconnected = createClient({ connectString: '127.0.0.1:1' });
    await expect(unconnected.detach()).rejects.toBeInstanceOf(NoSessionError);
    expect(unconnected.state).toBe('connecting');
    await unconnected.close();
    await expect(unconnected.detach()).rejects.toBeInstanceOf(ClientClosedError);
  });
});

describe('a hand-off that comes too late', () => {
  it('ends in SessionExpiredError, never a new session, with or without autoRecreateSession', async () => {
    const first = await connect({ connectString: server.connectString, sessionTimeoutMs: 4000 });
    await first.create('/handoff-late', null, { mode: 'ephemeral' });
    const handoff = await first.detach();
    // The server's own expiry: the session's ephemeral node goes when the server ends the session.
    await eventually(async () => (await admin.exists('/handoff-late')) === null, {
      what: 'the detached session expired on the server',
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    // The same for the { id, password } form of the option.
    const reattach = {
      id: BigInt.asIntN(64, BigInt(`0x${handoff.sessionId}`)),
      password: Buffer.from(handoff.password, 'hex'),
    };
    for (const session of [handoff, reattach]) {
      for (const autoRecreateSession of [false, true]) {
        const attempt = connect({ connectString: server.connectString, session, autoRecreateSession });
        await expect(attempt).rejects.toBeInstanceOf(SessionExpiredError);
      }
    }
    const client = createClient({
      connectString: server.connectString,
      session: handoff,
      autoRecreateSession: true,
    });
    await expect(client.connected()).rejects.toBeInstanceOf(SessionExpiredError);
    expect(client.state).toBe('expired');
    await expect(client.exists('/')).rejects.toBeInstanceOf(SessionExpiredError);
    expect(client.sessionId).toBe(BigInt.asIntN(64, BigInt(`0x${handoff.sessionId}`)));
    await client.close();
  });
});

describe('bad hand-offs', () => {
  /** A listener that counts the connections made to it: a client refused before sending makes none. */
  async function countingListener(): Promise<{ connectString: string; count: () => number; close(): void }> {
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as net.AddressInfo;
    return { connectString: `127.0.0.1:${port}`, count: () => connections, close: () => listener.close() };
  }

  const good: SessionHandoff = { sessionId: '0100000a1b2c0001', password: 'ab'.repeat(16), timeoutMs: 4000 };
  const bad: [string, unknown][] = [
    ['session', 'zkwire-session-1:0100000a1b2c0001:abab:4000'],
    ['session', null],
    ['session.sessionId', { ...good, sessionId: '0x0100000a1b2c0001' }],
    ['session.sessionId', { ...good, sessionId: '0000000000000000' }],
    ['session.sessionId', { ...good, sessionId: 42 }],
    ['session.password', { ...good, password: 'ab'.repeat(8) }],
    ['session.password', { ...good, password: undefined }],
    ['session.password', { ...good, password: new Uint8Array(16) }],
    ['session.timeoutMs', { ...good, timeoutMs: 0 }],
    ['session.timeoutMs', { ...good, timeoutMs: 1.5 }],
    ['session.timeoutMs', { ...good, timeoutMs: '4000' }],
    ['session.id', { id: 0n, password: new Uint8Array(16) }],
    ['session.id', { id: 2n ** 63n, password: new Uint8Array(16) }],
    ['session.id', { id: 7, password: new Uint8Array(16) }],
    ['session.password', { id: 7n, password: new Uint8Array(15) }],
  ];

  it('refuses each before connecting, naming the field', async () => {
    const listener = await countingListener();
    try {
      for (const [argument, session] of bad) {
        const attempt = connect({
          connectString: listener.connectString,
          session: session as SessionHandoff,
        });
        await expect(attempt, JSON.stringify(String(session))).rejects.toMatchObject({ argument });
        await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
      }
      expect(listener.count()).toBe(0);
    } finally {
      listener.close();
    }
  });

  it('decodeSessionHandoff refuses what encodeSessionHandoff did not write', () => {
    const encoded = encodeSessionHandoff(good);
    expect(decodeSessionHandoff(encoded)).toMatchObject(good);
    for (const text of [
      '',
      encoded.replace('zkwire-session-1', 'zkwire-session-2'),
      `${encoded}:1`,
      encoded.replace(':4000', ':-4000'),
      encoded.replace(':4000', ':4e3'),
      encoded.replace('abab', 'zzzz'),
      42,
    ]) {
      expect(() => decodeSessionHandoff(text as string)).toThrow(InvalidArgumentError);
    }
    expect(() => encodeSessionHandoff({ ...good, password: 'short' })).toThrow(InvalidArgumentError);
  });
});
