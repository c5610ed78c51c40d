/**
 * Real faults between the client and a real server, made by the fault proxy: silence past the read timeout,
 * a cut with a thousand requests in flight, corrupt and oversize replies, a server that is behind the client,
 * and 10,000 watches restored after a reconnect. Every test also fails on an unhandled rejection or an
 * uncaught exception (failOnProcessErrors).
 */
import { nextState, startFaultProxy, startZooKeeper } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import {
  ConnectionLossError,
  connect,
  isNoNode,
  NoNodeError,
  OperationTimeoutError,
  op,
  ProtocolError,
  RetryNTimes,
  retry,
} from '../src/index.js';
import { failOnProcessErrors, frameTap, recordStates, until, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();

const fixture = useProxiedServer({ tickTime: 1000 });

/** Settles to the error a promise rejected with (or fails the test if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('silence and cuts', () => {
  it('a pause past the read timeout: the connection is declared dead, the session resumes', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    const session = zk.sessionId;
    const states = recordStates(zk);
    const suspended = nextState(zk, 'suspended');
    fixture.proxy.pause();
    const pending = zk.getData('/');
    await suspended;
    expect(await rejection(pending)).toBeInstanceOf(ConnectionLossError);
    const back = nextState(zk, 'reconnected');
    fixture.proxy.resume();
    await back;
    expect(states).toEqual(['suspended', 'reconnected']);
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/')).not.toBeNull();
    await zk.close();
  });

  it('one-way stalls: the server applies a write whose reply is held; a held request is applied only on resume', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
    let settled = false;
    fixture.proxy.pause('toClient');
    const held = zk.create('/one-way-reply').finally(() => {
      settled = true;
    });
    await until(async () => (await fixture.admin.exists('/one-way-reply')) !== null);
    expect(settled).toBe(false);
    fixture.proxy.resume();
    await held;
    fixture.proxy.pause('toServer');
    const late = zk.create('/one-way-request');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await fixture.admin.exists('/one-way-request')).toBeNull();
    fixture.proxy.resume();
    await late;
    expect(await fixture.admin.exists('/one-way-request')).not.toBeNull();
    expect(() => fixture.proxy.pause('sideways' as never)).toThrow(RangeError);
    await zk.close();
  });

  it('a cut with 1,000 requests in flight: each rejects once with ConnectionLoss, none is resent', async () => {
    const tap = frameTap();
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 6000,
      connectionFactory: tap.factory,
    });
    await fixture.admin.create('/inflight');
    fixture.proxy.pause();
    let fulfilled = 0;
    const errors: unknown[] = [];
    const calls = Array.from({ length: 1000 }, (_, i) =>
      zk.create(`/inflight/n-${i}`).then(
        () => fulfilled++,
        (error: unknown) => errors.push(error),
      ),
    );
    // Every create is on the wire (held by the proxy) before the cut.
    await until(() => tap.on(0).filter((f) => f.opcode === 1).length === 1000);
    const back = nextState(zk, 'reconnected');
    fixture.proxy.cut();
    fixture.proxy.resume();
    await Promise.all(calls);
    expect(fulfilled).toBe(0);
    expect(errors).toHaveLength(1000);
    expect(errors.every((e) => e instanceof ConnectionLossError)).toBe(true);
    await back;
    // Nothing was resent behind the caller's back: no create reached the server, before or after the cut.
    await zk.sync('/');
    expect(await fixture.admin.getChildren('/inflight')).toEqual([]);
    expect(tap.frames.filter((f) => f.opcode === 1)).toHaveLength(1000);
    expect(await zk.create('/inflight/after')).toBe('/inflight/after');
    await zk.close();
  });

  it('a write applied by the server whose reply is lost: ConnectionLoss, applied once, never resent', async () => {
    const tap = frameTap();
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 6000,
      connectionFactory: tap.factory,
    });
    await fixture.admin.create('/applied', null);
    // Replies vanish on their way back; requests still reach the server.
    fixture.proxy.corrupt('toClient', () => Buffer.alloc(0));
    const create = zk.create('/applied/once', 'x', { mode: 'persistent-sequential' });
    await until(async () => (await fixture.admin.getChildren('/applied')).length === 1);
    const back = nextState(zk, 'reconnected');
    fixture.proxy.cut();
    fixture.proxy.clearCorruption();
    expect(await rejection(create)).toBeInstanceOf(ConnectionLossError);
    await back;
    await zk.sync('/');
    // A resend would have made a second sequential node.
    expect(await fixture.admin.getChildren('/applied')).toHaveLength(1);
    expect(tap.frames.filter((f) => f.opcode === 1)).toHaveLength(1);
    await zk.close();
  });

  it('corrupt reply bytes and an oversize frame end the connection with a protocol error; the session resumes', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 6000 });
    const session = zk.sessionId;
    await fixture.admin.create('/corrupt', 'payload');
    // The data length field of a getData reply (after the 16-byte header) claims ~2 GB.
    const corruptions: Array<(chunk: Buffer) => Buffer> = [
      (chunk) => {
        const bad = Buffer.from(chunk);
        if (bad.length >= 24) bad.writeInt32BE(0x7ffffff0, 20);
        return bad;
      },
      (chunk) => {
        const bad = Buffer.from(chunk);
        bad.writeInt32BE(0x7fffffff, 0);
        return bad;
      },
    ];
    for (const mutate of corruptions) {
      const back = nextState(zk, 'reconnected');
      fixture.proxy.corrupt('toClient', mutate, true);
      const error = await rejection(zk.getData('/corrupt'));
      expect(error).toBeInstanceOf(ConnectionLossError);
      expect((error as Error).cause).toBeInstanceOf(ProtocolError);
      await back;
      expect(zk.sessionId).toBe(session);
      expect((await zk.getData('/corrupt')).data.toString()).toBe('payload');
    }
    await zk.close();
  });
});

describe('per-call timeouts and retries', () => {
  it('timeoutMs and signal end a call while the server is silent; the connection carries on', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 6000 });
    const states = recordStates(zk);
    fixture.proxy.pause();
    const controller = new AbortController();
    const timed = rejection(zk.getData('/', { timeoutMs: 200 }));
    const aborted = rejection(zk.getData('/', { signal: controller.signal }));
    controller.abort(new Error('caller gave up'));
    expect(await timed).toBeInstanceOf(OperationTimeoutError);
    expect(await aborted).toMatchObject({ message: 'caller gave up' });
    fixture.proxy.resume();
    // The late replies are read and dropped; the next call gets its own reply.
    await fixture.admin.setData('/', 'root');
    expect((await zk.getData('/')).data.toString()).toBe('root');
    expect(states).toEqual([]);
    // A client-wide default applies to every call.
    const strict = await connect({ connectString: fixture.proxy.connectString, requestTimeoutMs: 200 });
    fixture.proxy.pause();
    expect(await rejection(strict.exists('/'))).toBeInstanceOf(OperationTimeoutError);
    fixture.proxy.resume();
    await strict.close();
    await zk.close();
  });

  it('retry() repeats a read across a cut, and gives up at once on other errors', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 6000 });
    await fixture.admin.create('/retried', 'value');
    let attempts = 0;
    const read = retry(() => {
      attempts++;
      if (attempts === 1) queueMicrotask(() => fixture.proxy.cut());
      return zk.getData('/retried');
    }, new RetryNTimes(20, 100));
    expect((await read).data.toString()).toBe('value');
    expect(attempts).toBeGreaterThan(1);
    let missing = 0;
    const error = await rejection(
      retry(() => {
        missing++;
        return zk.getData('/retried-missing');
      }, new RetryNTimes(20, 100)),
    );
    expect(error).toBeInstanceOf(NoNodeError);
    expect(isNoNode(error)).toBe(true);
    expect(missing).toBe(1);
    await zk.close();
  });
});

describe('a server behind the client', () => {
  it('refuses a client that has seen a newer zxid: the client moves on and keeps its session', async () => {
    await using behind = await startZooKeeper({ tickTime: 1000 });
    await using behindProxy = await startFaultProxy({ host: behind.host, port: behind.port });
    behindProxy.refuse(true);
    const zk = await connect({
      connectString: `${fixture.proxy.connectString},${behindProxy.connectString}`,
      sessionTimeoutMs: 6000,
    });
    const session = zk.sessionId;
    // This client's last zxid is now well ahead of anything the fresh server has seen.
    await zk.multi(Array.from({ length: 20 }, (_, i) => op.create(`/ahead-${i}`)));
    await zk.multi(Array.from({ length: 20 }, (_, i) => op.delete(`/ahead-${i}`)));
    behindProxy.refuse(false);
    const back = nextState(zk, 'reconnected');
    // With two hosts, the next one after a loss is the other: the server that is behind.
    fixture.proxy.cut();
    await back;
    expect(behindProxy.totalConnections).toBeGreaterThan(0);
    await until(() => behind.logTail(200).includes('client must try another server'));
    expect(zk.sessionId).toBe(session);
    expect(await zk.exists('/')).not.toBeNull();
    await zk.close();
  });
});

describe('10,000 watches and a reconnect', () => {
  it('restores every watch in several SetWatches batches after auth and before queued calls; all fire', async () => {
    const tap = frameTap();
    const zk = await connect({
      connectString: fixture.proxy.connectString,
      sessionTimeoutMs: 6000,
      connectionFactory: tap.factory,
      auth: [{ scheme: 'digest', credentials: 'watcher:secret' }],
    });
    await fixture.admin.create('/w10k');
    const names = Array.from({ length: 10_000 }, (_, i) => `${'w'.repeat(30)}-${String(i).padStart(5, '0')}`);
    for (let i = 0; i < names.length; i += 1000) {
      await fixture.admin.multi(names.slice(i, i + 1000).map((n) => op.create(`/w10k/${n}`, 'v0')));
    }
    const fired = new Set<string>();
    await Promise.all(names.map((n) => zk.getData(`/w10k/${n}`, { watch: (e) => fired.add(e.path) })));
    // One persistent watch too: the batch that holds it goes as SetWatches2.
    const persistent: string[] = [];
    await zk.addWatch('/w10k', 'persistent', (e) => persistent.push(e.type));
    const half = names.length / 2;

    fixture.proxy.pause();
    // The first half changes while the client cannot hear: SetWatches (with the last zxid) catches those up.
    for (let i = 0; i < half; i += 1000) {
      await fixture.admin.multi(names.slice(i, i + 1000).map((n) => op.setData(`/w10k/${n}`, 'v1')));
    }
    const suspended = nextState(zk, 'suspended');
    fixture.proxy.cut();
    await suspended;
    const queued = zk.getData('/w10k');
    const back = nextState(zk, 'reconnected');
    fixture.proxy.resume();
    await back;
    expect((await queued).data.length).toBe(0);

    const connection = tap.connections - 1;
    const frames = tap.on(connection);
    const setWatches = frames.filter((f) => f.opcode === 101 || f.opcode === 105);
    expect(setWatches.filter((f) => f.opcode === 105)).toHaveLength(1);
    const totalPathLength = names.reduce((sum, n) => sum + `/w10k/${n}`.length, '/w10k'.length);
    expect(setWatches.length).toBeGreaterThanOrEqual(Math.ceil(totalPathLength / (128 * 1024 + 50)));
    expect(setWatches.length).toBeLessThanOrEqual(Math.ceil(totalPathLength / (128 * 1024)));
    expect(setWatches.length).toBeGreaterThan(2);
    // Java's SET_WATCHES_XID on every batch: the server does not count them against its throttle.
    expect(new Set(setWatches.map((f) => f.xid))).toEqual(new Set([-8]));
    // Handshake, then the saved auth, then the watches, then the call queued while disconnected.
    expect(frames[0]!.opcode).toBeUndefined();
    expect(frames[1]).toMatchObject({ xid: -4, opcode: 100 });
    expect(frames.slice(2, 2 + setWatches.length)).toEqual(setWatches);
    expect(frames[2 + setWatches.length]!.opcode).toBe(4);

    await until(() => fired.size === half);
    // The second half changes after the reconnect: the restored watches are installed on the server.
    for (let i = half; i < names.length; i += 1000) {
      await fixture.admin.multi(names.slice(i, i + 1000).map((n) => op.setData(`/w10k/${n}`, 'v1')));
    }
    await until(() => fired.size === names.length);
    expect(fired.size).toBe(10_000);
    await fixture.admin.create('/w10k/new');
    await until(() => persistent.length > 0);
    expect(persistent).toEqual(['childrenChanged']);
    await zk.close();
  });
});
