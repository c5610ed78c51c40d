import { describe, expect, it } from 'vitest';
import type { CellSpec } from '../types.js';
import { runOpenLoopCell, warmUpOpenLoop } from './open-loop.js';
import type { Reply } from './open-loop-requests.js';

/** A latency cell's spec with turns off (the pacer needs only the rate and the phases). */
const spec = {
  contender: 'raw',
  kind: 'latency',
  rate: 1_000,
  warmupMs: 50,
  durationMs: 150,
} as CellSpec;

describe('runOpenLoopCell with turns off', () => {
  it('sends every request due over warm-up + duration, batched per tick, and records the window’s', async () => {
    let sends = 0;
    let batches = 0;
    const result = await runOpenLoopCell(
      {
        send(done: Reply) {
          sends++;
          setImmediate(() => done(true));
        },
        batch(sendAll) {
          batches++;
          sendAll();
        },
      },
      spec,
    );
    // 200 ms at 1,000/s, the one due at the very end too; a tick with nothing due makes no batch
    expect(sends).toBe(200);
    expect(batches).toBeLessThanOrEqual(200);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.turnRates).toBeUndefined();
    // The window opens at the first tick after the 50 ms warm-up, then that tick sends what fell due since the
    // tick before (a few ms on a loaded machine): the 150 due after the warm-up, and those few, at most.
    expect(result.latency?.count).toBeGreaterThan(0);
    expect(result.latency?.count).toBeLessThanOrEqual(160);
    expect(result.ops).toBe(result.latency?.count);
    expect(result.note).toMatch(
      /^1000 req\/s; send lag behind the intended time p50 \d+ µs, p99 \d+ µs; latency from the actual send p50 \d+ µs/,
    );
  });
});

describe('warmUpOpenLoop', () => {
  it('sends its share of the rate for the warm-up and returns once every reply is in', async () => {
    let sends = 0;
    let answered = 0;
    await warmUpOpenLoop(
      {
        send(done: Reply) {
          sends++;
          setTimeout(() => {
            answered++;
            done(true);
          }, 5);
        },
      },
      1_000,
      100,
    );
    // 100 ms at 1,000/s, the one due at the very end too, and none after it
    expect(sends).toBe(100);
    expect(answered).toBe(100);
  });

  it('does nothing when the warm-up is 0', async () => {
    let sends = 0;
    await warmUpOpenLoop({ send: () => sends++ }, 1_000, 0);
    expect(sends).toBe(0);
  });
});
