/**
 * A seeded random-frame fuzz of the client (issue 14 §4): a fake server answers honestly or, by chance, with
 * bad lengths, unknown xids, truncated records, garbage, bad UTF-8 paths, corrupted zxids, silence, resets,
 * byte-at-a-time replies and broken ConnectResponses, while the client keeps calls in flight. Checked: no
 * crash, no unhandled rejection, every call settles exactly once with a typed error or a value, memory flat
 * across rounds, and connection attempts bounded by the reconnect backoff (no storm).
 *
 * Replay a failing run with ZKWIRE_FUZZ_SEED=<seed printed> npx vitest run <this file>.
 */

import { type FuzzTally, frameFuzzer, seededRandom, startHostileServer } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { createClient, type ZooKeeperClient, ZooKeeperError } from '../src/index.js';
import { collectGarbage } from './collect-garbage.js';
import { failOnProcessErrors } from './faults-helpers.js';
import { pendingAfter, settlesWithin, sleep, Tracked } from './hostile-helpers.js';

failOnProcessErrors();

const SEED = Number(process.env.ZKWIRE_FUZZ_SEED ?? 20261125);
const ROUNDS = 4;
const ROUND_MS = 4000;
const IN_FLIGHT = 16;

/** Heap in use after a full collection (twice: weak callbacks of the first free more in the second). */
function settledHeap(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** One call picked at random; all of them work with the fuzzer's honest answer (NoNode). */
function randomCall(zk: ZooKeeperClient, random: () => number, n: number): Promise<unknown> {
  const path = `/fuzz/${n % 7}`;
  switch (Math.floor(random() * 5)) {
    case 0:
      return zk.exists(path, { watch: () => {} });
    case 1:
      return zk.getData(path);
    case 2:
      return zk.getChildren(path);
    case 3:
      return zk.create(path, 'x', { mode: 'ephemeral' });
    default:
      return zk.exists(path, { timeoutMs: 1 + Math.floor(random() * 1500) });
  }
}

interface RoundResult {
  calls: number;
  connections: number;
  tally: FuzzTally;
}

async function fuzzRound(seed: number): Promise<RoundResult> {
  const fuzzer = frameFuzzer({ seed });
  await using server = await startHostileServer(fuzzer.script);
  const host = server.connectString;
  // Three entries (the same fake): the backoff's full-round pause comes every third attempt, as with an
  // ensemble of three.
  const zk = createClient({
    connectString: `${host},${host},${host}`,
    sessionTimeoutMs: 2000,
    requestTimeoutMs: 2500,
    autoRecreateSession: true,
  });
  const random = seededRandom(seed ^ 0x9e3779b9);
  const calls: Tracked[] = [];
  const started = Date.now();
  let inFlight = 0;
  while (Date.now() - started < ROUND_MS) {
    while (inFlight < IN_FLIGHT) {
      let call: Promise<unknown>;
      try {
        call = randomCall(zk, random, calls.length);
      } catch (error) {
        // A synchronous refusal is a settlement too.
        call = Promise.reject(error);
      }
      inFlight++;
      const tracked = new Tracked(call);
      calls.push(tracked);
      call.then(
        () => inFlight--,
        () => inFlight--,
      );
    }
    await sleep(5);
  }
  const elapsedMs = Date.now() - started;
  const connections = server.totalConnections;
  expect(await settlesWithin(zk.close(), 10_000), `close() settles (seed ${seed})`).toBe(true);
  expect(await pendingAfter(calls, 10_000), `calls still pending (seed ${seed})`).toEqual([]);
  for (const call of calls) {
    expect(call.settlements).toBe(1);
    if (call.outcome.settled && !call.outcome.ok) {
      expect(ZooKeeperError.isInstance(call.outcome.error), String(call.outcome.error)).toBe(true);
    }
  }
  // The backoff: a random 0-999 ms before each attempt but the first, and 1 s more after each full round of
  // the three hosts, so at most three attempts per second (and the first ones).
  expect(connections, `connection attempts in ${elapsedMs} ms (seed ${seed})`).toBeLessThanOrEqual(
    3 * Math.ceil(elapsedMs / 1000) + 3,
  );
  return { calls: calls.length, connections, tally: fuzzer.tally };
}

describe('seeded random-frame fuzz against a hostile server', () => {
  it('no crash, every call settles once, memory flat, no reconnect storm', async () => {
    const heaps: number[] = [];
    const results: RoundResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      results.push(await fuzzRound(SEED + round));
      heaps.push(settledHeap());
    }
    const total = (key: keyof FuzzTally) => results.reduce((sum, r) => sum + (r.tally[key] ?? 0), 0);
    const kinds = [...new Set(results.flatMap((r) => Object.keys(r.tally)))].sort();
    console.log(
      `fuzz seed ${SEED}: ${results.map((r) => r.calls).join('+')} calls, ` +
        `${results.map((r) => r.connections).join('+')} connections, ` +
        `${kinds.map((k) => `${k}=${total(k)}`).join(' ')}; heap after each round (MB): ` +
        heaps.map((h) => (h / 2 ** 20).toFixed(1)).join(' '),
    );
    // The fuzz did misbehave, in many ways.
    expect(kinds.length).toBeGreaterThanOrEqual(8);
    // Memory flat: what a round leaves behind does not grow with the rounds (the first round warms up).
    expect(heaps[ROUNDS - 1]! - heaps[1]!).toBeLessThan(8 * 2 ** 20);
  }, 120_000);
});
