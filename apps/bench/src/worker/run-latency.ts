/**
 * Latency at a fixed request rate below saturation (an open loop): every millisecond the pacer sends the
 * getData requests that are due. Request k is due at start + k / rate, and its latency runs from that intended
 * send time, not from when it actually went out: a client (or pacer) that falls behind cannot hide the wait
 * of the requests it delayed (no coordinated omission). Cells that fell behind the rate are flagged by stats.
 */
import diagnostics from 'node:diagnostics_channel';
import type { CellResult, CellSpec } from '../types.js';
import type { ClientDriver } from './driver.js';
import { LatencyRecorder, openLoopNote } from './latency-recorder.js';
import { CellPhases, sleep } from './window.js';

/** The client's public diagnostics channel for read-pacing waits (docs/contracts.md). */
const READ_PACING_CHANNEL = 'zkwire:client:read-pacing';

/**
 * Counts our client's read-pacing waits inside the window: an open loop below saturation keeps few requests
 * in flight, where the pacing should never wait; if it does, its waits show up in the latency.
 */
class PacingWaits {
  recording = false;
  waits = 0;
  maxAwaiting = 0;
  private readonly onMessage = (message: unknown) => {
    if (!this.recording) return;
    this.waits++;
    const awaiting = (message as { awaitingReplies?: number }).awaitingReplies ?? 0;
    this.maxAwaiting = Math.max(this.maxAwaiting, awaiting);
  };

  constructor() {
    diagnostics.subscribe(READ_PACING_CHANNEL, this.onMessage);
  }

  stop(): string {
    diagnostics.unsubscribe(READ_PACING_CHANNEL, this.onMessage);
    return this.waits === 0
      ? '; read pacing never waited'
      : `; read pacing waited ${this.waits} times (up to ${this.maxAwaiting} replies awaited)`;
  }
}

/** Sends `spec.rate` getData per second for warmup + duration; latencies of the window only. */
export async function runLatency(driver: ClientDriver, spec: CellSpec): Promise<CellResult> {
  const rate = spec.rate ?? 2_000;
  const recorder = new LatencyRecorder();
  // how late the pacer got each request out (intended to actual send): shows when a client delays the event loop
  const sendLag = new LatencyRecorder();
  const fromSend = new LatencyRecorder();
  let completed = 0;
  let errors = 0;
  let sent = 0;
  let outstanding = 0;
  const pacing = spec.contender === 'ours' ? new PacingWaits() : undefined;
  const startNs = process.hrtime.bigint();
  const phases = new CellPhases(spec, [recorder, sendLag, fromSend, ...(pacing ? [pacing] : [])]);
  const nsPerRequest = 1e9 / rate;

  const sendOne = (k: number) => {
    const t0 = startNs + BigInt(Math.round(k * nsPerRequest));
    const sentNs = process.hrtime.bigint();
    sendLag.recordBetween(t0, sentNs);
    outstanding++;
    driver.getData(
      spec.paths.data,
      () => {
        outstanding--;
        completed++;
        const doneNs = process.hrtime.bigint();
        recorder.recordBetween(t0, doneNs);
        fromSend.recordBetween(sentNs, doneNs);
      },
      () => {
        outstanding--;
        errors++;
      },
    );
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      phases.openWhenWarm(completed, errors, now);
      const due = phases.due(now, rate);
      while (sent < due) {
        sent++;
        sendOne(sent);
      }
      if (now >= phases.end) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const measured = phases.close(completed, errors);
  const drainDeadline = Date.now() + 10_000;
  while (outstanding > 0 && Date.now() < drainDeadline) await sleep(5);
  return {
    ok: true,
    ...measured,
    latency: recorder.summary(),
    note: `${openLoopNote(rate, sendLag, fromSend)}${pacing?.stop() ?? ''}`,
  };
}
