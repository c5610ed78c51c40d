/**
 * Latency at a fixed request rate below saturation (an open loop): every millisecond the pacer sends the
 * getData requests that are due. Request k is due at start + k / rate, and its latency runs from that intended
 * send time, not from when it actually went out: a client (or pacer) that falls behind cannot hide the wait
 * of the requests it delayed (no coordinated omission). Cells that fell behind the rate are flagged by stats.
 * With turns (the default) the loop runs only in its contender's turns (open-loop-turns.ts); with
 * `--turns off`, for warm-up + duration in one stretch.
 */
import type { CellResult, CellSpec } from '../types.js';
import { OpenLoopRecorders } from './latency-recorder.js';
import { hrtimeAt, OpenLoopRequests, type OpenLoopTarget } from './open-loop-requests.js';
import { OpenLoopInTurns } from './open-loop-turns.js';
import { turnCellFigures } from './turn-trace.js';
import { runInTurns } from './turns.js';
import { CellPhases, type Recording, requestsDue } from './window.js';

/** The rate of a latency cell whose spec names none (the `--rate` default). */
const DEFAULT_RATE = 2_000;

/**
 * Runs an open-loop cell the way its spec asks, in turns or in one stretch; `extras` record inside the
 * measured windows only (our client's read-pacing waits). The note gives the rate, the send lag and the
 * latency from the actual send (openLoopNote).
 */
export async function runOpenLoopCell(
  target: OpenLoopTarget,
  spec: CellSpec,
  extras: Recording[] = [],
): Promise<CellResult> {
  const rate = spec.rate ?? DEFAULT_RATE;
  if (!spec.turns) return runOpenLoopStretch(target, spec, rate, extras);
  await warmUpOpenLoop(target, rate / spec.turns.of, spec.turns.warmUpMs);
  const loop = new OpenLoopInTurns(target, rate, extras);
  const run = turnCellFigures(await runInTurns(loop, spec.turns), spec.turns);
  if (!run.ok) return run;
  return {
    ok: true,
    ...run.figures,
    latency: loop.measured.latency.summary(),
    // aligned with turnRates, which leave out the warm-up turn
    turnP99Us: loop.turnP99s.slice(1),
    note: loop.measured.note(rate),
  };
}

/**
 * Before the turns (TurnSchedule.warmUpMs), alongside the other contenders: sends getData at `share` per
 * second for `ms`, unrecorded, then waits for the replies. Each contender sends its share of the case's rate
 * (rate / contenders), so that the server sees the case's rate, not several times it. Without it a contender's
 * first turns ran code still being compiled, on the same core as its event loop: ours' send lag at 2,000/s
 * had a p99 of 2.8-7.6 ms against the raw limit's 1.5-2.6 (2026-11-27, Intel Xeon).
 */
export async function warmUpOpenLoop(target: OpenLoopTarget, share: number, ms: number): Promise<void> {
  if (ms <= 0) return;
  const requests = new OpenLoopRequests(target);
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      requests.sendBatch(requestsDue(Math.min(elapsed, ms), share) - sent, () => {
        sent++;
        requests.send(process.hrtime.bigint(), undefined);
      });
      if (elapsed >= ms) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await requests.drain(10_000);
}

/** Sends `rate` getData per second for warmup + duration; latencies of the window only. */
async function runOpenLoopStretch(
  target: OpenLoopTarget,
  spec: CellSpec,
  rate: number,
  extras: Recording[],
): Promise<CellResult> {
  const recorders = new OpenLoopRecorders();
  const requests = new OpenLoopRequests(target);
  const phases = new CellPhases(spec, [...recorders.all(), ...extras]);
  const startNs = hrtimeAt(phases.start);
  const nsPerRequest = 1e9 / rate;
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      phases.openWhenWarm(requests.completed, requests.errors, now);
      requests.sendBatch(phases.due(now, rate) - sent, () => {
        sent++;
        requests.send(startNs + BigInt(Math.round(sent * nsPerRequest)), recorders);
      });
      if (now >= phases.end) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const measured = phases.close(requests.completed, requests.errors);
  await requests.drain(10_000);
  return { ok: true, ...measured, latency: recorders.latency.summary(), note: recorders.note(rate) };
}
