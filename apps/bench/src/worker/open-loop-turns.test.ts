import { describe, expect, it } from 'vitest';
import { fellBehind } from '../stats.js';
import type { OpenLoopTarget, Reply } from './open-loop-requests.js';
import { OpenLoopInTurns } from './open-loop-turns.js';
import { runTurns } from './turns.js';

/** One turn of 100 ms in a cycle (turn-trace.ts: a 20 ms ramp), two measured cycles after the warm-up. */
const schedule = { index: 0, of: 1, turnMs: 100, gapMs: 80, cycles: 2, warmUpMs: 0 };
const RATE = 1_000;
/** What a measured turn records at 1,000/s: the requests due from 20 ms to before 100 ms (turn-pacer.ts). */
const PER_TURN = 80;

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

/**
 * A server answering every request on the next turn of the event loop; `stallAt(n)` ms of the n-th send (from
 * 1, over the whole cell) hold the event loop, as a client that stalls does.
 */
function answeringTarget(stallAt: (send: number) => number = () => 0): OpenLoopTarget & { sends: number } {
  const target = {
    sends: 0,
    send(done: Reply) {
      target.sends++;
      busy(stallAt(target.sends));
      setImmediate(() => done(true));
    },
  };
  return target;
}

/** The measured turns (not the warm-up, not lost) of a run. */
function counted(trace: { lost: boolean }[]): number {
  return trace.slice(1).filter((t) => !t.lost).length;
}

describe('OpenLoopInTurns', () => {
  it('records the requests due inside each measured turn’s window, none of the warm-up turn', async () => {
    const target = answeringTarget();
    const loop = new OpenLoopInTurns(target, RATE);
    const measured = await runTurns(loop, schedule, Date.now());
    // every turn sends its 100 due requests (the one due at the end too), and nothing more
    expect(target.sends).toBe(3 * 100);
    const latency = loop.measured.latency.summary();
    expect(latency.count).toBe(PER_TURN * counted(measured.trace));
    expect(loop.measured.sendLag.summary().count).toBe(latency.count);
    expect(loop.measured.fromSend.summary().count).toBe(latency.count);
    expect(loop.measured.note(RATE)).toMatch(/^1000 req\/s; send lag behind the intended time p50 \d+ µs/);
  });

  it('times a request from when it was due: a stall is paid for by the requests it delayed', async () => {
    // turn 1's 50th request (send 150) holds the event loop 30 ms: requests 51-80 go out up to 30 ms late
    const target = answeringTarget((n) => (n === 150 ? 30 : 0));
    const loop = new OpenLoopInTurns(target, RATE);
    const measured = await runTurns(loop, schedule, Date.now());
    expect(measured.trace[1]?.lost).toBe(false);
    // requests 51-70 waited 10-29 ms from their due time, a tenth of the cell's 160 or more of 80: the p90.
    // From the actual send only request 50 (answered after the stall) was slow.
    expect(loop.measured.latency.summary().p90).toBeGreaterThanOrEqual(8_000);
    expect(loop.measured.fromSend.summary().p90).toBeLessThan(8_000);
    expect(loop.measured.sendLag.summary().max).toBeGreaterThanOrEqual(25_000);
    // delayed, not dropped: the turn still records every request due in its window
    expect(loop.measured.latency.summary().count).toBe(PER_TURN * counted(measured.trace));
  });

  it('still sends, and records, what fell due before the turn’s end when a stall runs past it', async () => {
    // turn 1's 95th request holds the loop 40 ms: past the turn's end, when the pacer has stopped ticking
    const target = answeringTarget((n) => (n === 195 ? 40 : 0));
    const loop = new OpenLoopInTurns(target, RATE);
    const measured = await runTurns(loop, schedule, Date.now());
    expect(target.sends).toBe(3 * 100);
    expect(loop.measured.latency.summary().count).toBe(PER_TURN * counted(measured.trace));
  });

  it('leaves a lost turn’s latencies out, as its figures are', async () => {
    // turn 1's first request holds the loop 150 ms: past its whole turn, so no reply lands in its window
    const target = answeringTarget((n) => (n === 101 ? 150 : 0));
    const loop = new OpenLoopInTurns(target, RATE);
    const measured = await runTurns(loop, { ...schedule, gapMs: 200 }, Date.now());
    expect(measured.trace[1]?.lost).toBe(true);
    expect(measured.lostTurns).toBe(measured.trace.slice(1).filter((t) => t.lost).length);
    expect(loop.measured.latency.summary().count).toBe(PER_TURN * counted(measured.trace));
  });

  it('gives figures that flag a server answering half the rate as behind, not one that keeps up', async () => {
    const keepsUp = await runTurns(new OpenLoopInTurns(answeringTarget(), RATE), schedule, Date.now());
    expect(fellBehind({ ok: true, ...keepsUp }, RATE)).toBe(false);
    // replies in order at 500/s, however late the interval fires; a gap long enough for the backlog to clear
    const queue: Reply[] = [];
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const owed = Math.min(queue.length, Math.round((now - last) / 2));
      last += owed * 2;
      if (owed === 0 && queue.length === 0) last = now;
      for (const done of queue.splice(0, owed)) done(true);
    }, 1);
    try {
      const slow = new OpenLoopInTurns({ send: (done) => queue.push(done) }, RATE);
      const behind = await runTurns(slow, { ...schedule, gapMs: 300 }, Date.now());
      expect(behind.ops).toBeGreaterThan(0);
      expect(fellBehind({ ok: true, ...behind }, RATE)).toBe(true);
    } finally {
      clearInterval(timer);
    }
  });
});
