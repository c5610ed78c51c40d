/**
 * Lock-safe mode loses nothing: a consumer process SIGKILLed mid-batch, connections cut under a consumer,
 * and a consumer whose session expires. Every item put is delivered at least once and the queue ends empty.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { eventually, type FaultProxy, startFaultProxy } from '@zkwire/testing';
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { DistributedQueue, stringSerializer } from '../src/index.js';
import { startConsuming, uniquePath, useQueueServer } from './helpers/fixture.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const childScript = fileURLToPath(new URL('./helpers/consumer-child.ts', import.meta.url));

// tickTime 500: sessions may be as short as 1 s, so an expiry takes about 2 s, not 20.
const fixture = useQueueServer({ tickTime: 500 });

function lockSafeQueue(c: typeof fixture.client, path: string) {
  return new DistributedQueue(c, path, {
    serializer: stringSerializer,
    lockPath: `${path}-locks`,
    onError: () => {},
  });
}

/** A fault proxy in front of the file's server and a client through it; `await using` closes both. */
async function viaFaultProxy(
  sessionTimeoutMs = 10_000,
): Promise<{ proxy: FaultProxy; client: ZooKeeperClient } & AsyncDisposable> {
  const proxy = await startFaultProxy({ host: fixture.server.host, port: fixture.server.port });
  const client = await connect({ connectString: proxy.connectString, sessionTimeoutMs });
  return {
    proxy,
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await proxy.close();
    },
  };
}

/** Consumes until every one of `expected` has been seen at least once; returns all deliveries. */
async function consumeAll(queue: DistributedQueue<string>, expected: Set<string>, seen: string[] = []) {
  const missing = new Set(expected);
  for (const item of seen) missing.delete(item);
  const stop = new AbortController();
  if (missing.size === 0) return seen;
  await queue.consume(
    (item) => {
      seen.push(item);
      missing.delete(item);
      if (missing.size === 0) stop.abort();
    },
    { signal: stop.signal },
  );
  return seen;
}

describe('lock-safe mode loses nothing', () => {
  it('when a consumer process is SIGKILLed in the middle of a batch', async () => {
    const path = uniquePath('kill');
    const producer = lockSafeQueue(fixture.client, path);
    const all = new Set<string>();
    for (let b = 0; b < 5; b++) {
      const batch = Array.from({ length: 4 }, (_, i) => `b${b}-${i}`);
      for (const item of batch) all.add(item);
      await producer.putMulti(batch);
    }
    const child: ChildProcess = spawn(
      tsx,
      [childScript, fixture.server.connectString, path, `${path}-locks`, 'b1-2', '1000'],
      { cwd: packageDir, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const childSeen: string[] = [];
    let childSession: bigint | undefined;
    const held = new Promise<void>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`consumer child exited early (${code})`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('SESSION ')) childSession = BigInt(line.slice(8));
        if (line.startsWith('ITEM ')) childSeen.push(line.slice(5));
        if (line === 'HOLD') resolve();
      });
    });
    try {
      await held;
      // Mid-batch: the child took b0 whole and holds the lock of b1 after handing out b1-0..b1-2.
      const locks = await fixture.client.getChildren(`${path}-locks`);
      expect(locks).toHaveLength(1);
      expect((await fixture.client.exists(`${path}-locks/${locks[0]}`))?.ephemeralOwner).toBe(childSession);
      expect(childSeen).toEqual(['b0-0', 'b0-1', 'b0-2', 'b0-3', 'b1-0', 'b1-1', 'b1-2']);
    } finally {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    }
    // A survivor takes the unlocked batches at once and b1 (whole, from its start) once the dead session's
    // lock is gone.
    const survivor = lockSafeQueue(fixture.client, path);
    const survivorSeen = await consumeAll(
      survivor,
      new Set([...all].filter((item) => !item.startsWith('b0'))),
    );
    const b1 = survivorSeen.indexOf('b1-0');
    expect(survivorSeen.slice(b1, b1 + 4)).toEqual(['b1-0', 'b1-1', 'b1-2', 'b1-3']);
    expect(survivorSeen).toHaveLength(16);
    expect(new Set([...childSeen, ...survivorSeen])).toEqual(all);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
    await survivor.close();
    await producer.close();
  });

  it('when the connection is cut again and again under a consumer (fault proxy)', async () => {
    const path = uniquePath('cut');
    await using cut = await viaFaultProxy();
    const { proxy, client: viaProxy } = cut;
    const producer = lockSafeQueue(fixture.client, path);
    const all = new Set<string>();
    for (let b = 0; b < 20; b++) {
      const batch = Array.from({ length: 5 }, (_, i) => `c${b}-${i}`);
      for (const item of batch) all.add(item);
      await producer.putMulti(batch);
    }
    const consumer = lockSafeQueue(viaProxy, path);
    let deliveries = 0;
    const seen: string[] = [];
    const stop = new AbortController();
    const missing = new Set(all);
    await consumer.consume(
      (item) => {
        seen.push(item);
        missing.delete(item);
        // Cut every connection now and then, in the middle of batches.
        if (++deliveries % 23 === 0) proxy.cut();
        if (missing.size === 0) stop.abort();
      },
      { signal: stop.signal },
    );
    expect(new Set(seen)).toEqual(all);
    expect(proxy.connectionCount).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await fixture.client.getChildren(path)).length === 0, {
      timeoutMs: 10_000,
      what: 'an empty queue',
    });
    expect(await fixture.client.getChildren(`${path}-locks`)).toEqual([]);
    // The session survived the cuts: the same client is still usable.
    expect(viaProxy.state).toBe('connected');
    await consumer.close();
    await producer.close();
  });

  it('when the connection of an idle consumer is cut: items put afterwards still reach it', async () => {
    const path = uniquePath('idle-cut');
    await using cut = await viaFaultProxy();
    const { proxy, client: viaProxy } = cut;
    const consumer = lockSafeQueue(viaProxy, path);
    const producer = lockSafeQueue(fixture.client, path);
    await producer.put('before');
    const { items: seen, done: run } = startConsuming(consumer, 3);
    await eventually(() => seen.length === 1, { timeoutMs: 10_000, what: 'the first item' });
    // The consumer now waits on its one watch; the connection drops under it and comes back.
    const reconnected = new Promise<void>((resolve) => {
      viaProxy.on('state', (state) => {
        if (state === 'reconnected') resolve();
      });
    });
    proxy.cut();
    await reconnected;
    await producer.putMulti(['after-1', 'after-2']);
    await run;
    expect(seen).toEqual(['before', 'after-1', 'after-2']);
    await consumer.close();
    await producer.close();
  });

  it("when a producer's connection is cut under puts in flight (duplicates allowed, losses not)", async () => {
    const path = uniquePath('put-cut');
    await using cut = await viaFaultProxy();
    const { proxy, client: viaProxy } = cut;
    const producer = lockSafeQueue(viaProxy, path);
    await producer.start();
    const states: string[] = [];
    viaProxy.on('state', (state) => states.push(state));
    const all = Array.from({ length: 120 }, (_, i) => `put-${i}`);
    const puts: Promise<string>[] = [];
    for (const [i, item] of all.entries()) {
      puts.push(producer.put(item));
      if (i % 30 === 29) {
        proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    await Promise.all(puts);
    expect(states.filter((state) => state === 'reconnected').length).toBeGreaterThanOrEqual(1);
    const consumer = lockSafeQueue(fixture.client, path);
    const seen = await consumeAll(consumer, new Set(all));
    expect(new Set(seen)).toEqual(new Set(all));
    await consumer.close();
    await producer.close();
  });

  it("when a consumer's session expires while it holds a batch", async () => {
    const path = uniquePath('expire');
    await using cut = await viaFaultProxy(1000);
    const { proxy, client: doomed } = cut;
    const producer = lockSafeQueue(fixture.client, path);
    await producer.putMulti(['e1', 'e2']);
    await producer.put('e3');
    const first = lockSafeQueue(doomed, path);
    let release!: () => void;
    const handlerBlocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let gotFirst!: () => void;
    const firstArrived = new Promise<void>((resolve) => {
      gotFirst = resolve;
    });
    const firstSeen: string[] = [];
    const firstRun = first
      .consume(async (item) => {
        firstSeen.push(item);
        gotFirst();
        await handlerBlocked;
      })
      .then(
        () => 'resolved',
        (error: unknown) => error,
      );
    await firstArrived;
    // The consumer's network goes dark for longer than its session timeout: the server expires it.
    proxy.drop(true);
    const survivor = lockSafeQueue(fixture.client, path);
    const survivorSeen = await consumeAll(survivor, new Set(['e1', 'e2', 'e3']));
    // e3 at once; the batch e1, e2 whole once the expired session's lock went with it.
    expect([...survivorSeen].sort()).toEqual(['e1', 'e2', 'e3']);
    expect(survivorSeen.indexOf('e2')).toBe(survivorSeen.indexOf('e1') + 1);
    proxy.drop(false);
    await eventually(() => doomed.state === 'expired', {
      timeoutMs: 20_000,
      what: 'the session expiry to be seen',
    });
    release();
    const outcome = await firstRun;
    expect((outcome as { code?: string }).code).toBe('SESSIONEXPIRED');
    expect(firstSeen).toEqual(['e1']);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await survivor.close();
    await producer.close();
    await first.close();
  });
});
