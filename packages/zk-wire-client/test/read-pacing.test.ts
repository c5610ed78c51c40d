/**
 * Read pacing under load (the readCoalescing option, src/transport/read-pacing.ts) against a real server:
 * with many requests in flight the client pauses its socket between reads, and every reply still reaches its
 * own call; with few in flight, or with the option off, it never pauses; a cut while paused loses nothing
 * silently. Pauses are counted with a spy on net.Socket's pause(), the one way the client stops reading.
 */

import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import { nextState } from '@zkwire/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChannelName,
  ConnectionLossError,
  connect,
  InvalidArgumentError,
  type ReadPacingMessage,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();

const fixture = useProxiedServer();
const NODES = 100;
const nodePath = (i: number) => `/pacing/n${i}`;

afterEach(() => {
  vi.restoreAllMocks();
});

async function makeNodes(): Promise<void> {
  if (await fixture.admin.exists('/pacing')) return;
  await fixture.admin.create('/pacing', null);
  await Promise.all(
    Array.from({ length: NODES }, (_, i) => fixture.admin.create(nodePath(i), `value of ${i}`)),
  );
}

/**
 * Keeps `inFlight` getData calls going until `total` completed, each checking that the data it got is its
 * own node's; returns how many replies were wrong (must be none).
 */
async function closedLoop(zk: ZooKeeperClient, inFlight: number, total: number): Promise<number> {
  let issued = 0;
  let wrong = 0;
  const slot = async () => {
    while (issued < total) {
      const i = issued++ % NODES;
      const { data, stat } = await zk.getData(nodePath(i));
      if (data.toString() !== `value of ${i}` || stat.dataLength !== data.length) wrong++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, slot));
  return wrong;
}

/** Runs `run` while collecting the read-pacing waits the client publishes (`run` sees them as they come). */
async function pacingWaitsDuring(
  run: (waits: readonly ReadPacingMessage[]) => Promise<void>,
): Promise<ReadPacingMessage[]> {
  const waits: ReadPacingMessage[] = [];
  const listener = (message: unknown) => void waits.push(message as ReadPacingMessage);
  diagnostics.subscribe(ChannelName.readPacing, listener);
  try {
    await run(waits);
  } finally {
    diagnostics.unsubscribe(ChannelName.readPacing, listener);
  }
  return waits;
}

describe('read pacing against a real server', () => {
  it('pauses between reads with 1,000 requests in flight, and every reply reaches its own call', async () => {
    await makeNodes();
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    await using zk = await connect({ connectString: fixture.server.connectString });
    expect(await closedLoop(zk, 1000, 30_000)).toBe(0);
    expect(pause.mock.calls.length).toBeGreaterThan(0);
  });

  it('waits in whole ms, never longer than maxDelayMs (default 4), and only with minInFlight or more awaiting', async () => {
    await makeNodes();
    const waits = await pacingWaitsDuring(async (seen) => {
      await using zk = await connect({ connectString: fixture.server.connectString });
      expect(await closedLoop(zk, 1000, 30_000)).toBe(0);
      await using capped = await connect({
        connectString: fixture.server.connectString,
        readCoalescing: { maxDelayMs: 1 },
      });
      const before = seen.length;
      expect(await closedLoop(capped, 1000, 30_000)).toBe(0);
      expect(seen.length).toBeGreaterThan(before);
      expect(seen.slice(before).every((w) => w.waitMs === 1)).toBe(true);
    });
    expect(waits.length).toBeGreaterThan(0);
    for (const { waitMs, awaitingReplies } of waits) {
      expect(Number.isInteger(waitMs) && waitMs >= 1 && waitMs <= 4).toBe(true);
      expect(awaitingReplies).toBeGreaterThanOrEqual(64);
    }
  });

  it('paces large replies too (getChildren of 1,000 names, ~16 KB each), and every reply comes whole', async () => {
    const wide = '/pacing-wide';
    const names = Array.from({ length: 1000 }, (_, i) => `child-${String(i).padStart(6, '0')}`);
    if (!(await fixture.admin.exists(wide))) {
      await fixture.admin.create(wide, null);
      await Promise.all(names.map((name) => fixture.admin.create(`${wide}/${name}`, null)));
    }
    const waits = await pacingWaitsDuring(async () => {
      await using zk = await connect({ connectString: fixture.server.connectString });
      let issued = 0;
      let wrong = 0;
      const slot = async () => {
        while (issued++ < 3_000) {
          const children = await zk.getChildren(wide);
          if (children.length !== names.length || !children.includes(names[999]!)) wrong++;
        }
      };
      await Promise.all(Array.from({ length: 256 }, slot));
      expect(wrong).toBe(0);
    });
    // A read brings four such replies at most: before 2026-11-29 the pacer never waited for them at all.
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.every((w) => Number.isInteger(w.waitMs) && w.waitMs >= 1 && w.waitMs <= 4)).toBe(true);
  });

  it('never pauses with fewer requests in flight than minInFlight', async () => {
    await makeNodes();
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    await using zk = await connect({ connectString: fixture.server.connectString });
    expect(await closedLoop(zk, 16, 10_000)).toBe(0);
    expect(pause).not.toHaveBeenCalled();
  });

  it('never pauses when the requests come on their own clock (an open loop), however deep', async () => {
    await makeNodes();
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    await using zk = await connect({ connectString: fixture.server.connectString });
    // 200 requests per timer tick, faster than a server answers: the depth climbs into the thousands, but
    // every request is written from a timer, none in the turn of a read.
    const calls: Promise<boolean>[] = [];
    while (calls.length < 20_000) {
      for (let k = 0; k < 200; k++) {
        const i = calls.length % NODES;
        calls.push(zk.getData(nodePath(i)).then(({ data }) => data.toString() === `value of ${i}`));
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect((await Promise.all(calls)).every(Boolean)).toBe(true);
    expect(pause).not.toHaveBeenCalled();
  });

  it('never pauses with readCoalescing: false, whatever the load', async () => {
    await makeNodes();
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    await using zk = await connect({ connectString: fixture.server.connectString, readCoalescing: false });
    expect(await closedLoop(zk, 1000, 20_000)).toBe(0);
    expect(pause).not.toHaveBeenCalled();
  });

  it('a cut while reads are paced fails what was in flight with ConnectionLoss; the session goes on', async () => {
    await makeNodes();
    const pause = vi.spyOn(net.Socket.prototype, 'pause');
    await using zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
    const session = zk.sessionId;
    let completed = 0;
    let lost = 0;
    const other: unknown[] = [];
    let cut = false;
    const slot = async () => {
      while (!cut) {
        try {
          await zk.getData(nodePath(completed % NODES));
          completed++;
        } catch (error) {
          if (error instanceof ConnectionLossError) lost++;
          else other.push(error);
          return;
        }
      }
    };
    const slots = Promise.all(Array.from({ length: 1000 }, slot));
    while (pause.mock.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    const back = nextState(zk, 'reconnected');
    fixture.proxy.cut();
    cut = true;
    await slots;
    expect(other).toEqual([]);
    expect(lost).toBeGreaterThan(0);
    await back;
    expect(zk.sessionId).toBe(session);
    expect((await zk.getData(nodePath(7))).data.toString()).toBe('value of 7');
  });

  it('refuses bad settings before connecting', async () => {
    const connectString = fixture.server.connectString;
    await expect(connect({ connectString, readCoalescing: { delayMs: 0 } })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(connect({ connectString, readCoalescing: { minInFlight: -1 } })).rejects.toThrow(
      /readCoalescing\.minInFlight/,
    );
    await expect(connect({ connectString, readCoalescing: { maxDelayMs: 100 } })).rejects.toThrow(
      /readCoalescing\.maxDelayMs/,
    );
  });
});
