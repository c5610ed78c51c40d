/**
 * Latency at a fixed request rate below saturation (an open loop): every millisecond the pacer sends the
 * getData requests that are due, and each one's time from send to reply goes into an HDR histogram.
 */
import type { CellResult, CellSpec } from '../types.js';
import type { ClientDriver } from './driver.js';
import { LatencyRecorder } from './latency-recorder.js';
import { MeasureWindow, sleep } from './window.js';

/** Sends `spec.rate` getData per second for warmup + duration; latencies of the window only. */
export async function runLatency(driver: ClientDriver, spec: CellSpec): Promise<CellResult> {
  const rate = spec.rate ?? 2_000;
  const recorder = new LatencyRecorder();
  let completed = 0;
  let errors = 0;
  let sent = 0;
  let outstanding = 0;
  const start = performance.now();
  const end = start + spec.warmupMs + spec.durationMs;

  const sendOne = () => {
    const t0 = process.hrtime.bigint();
    outstanding++;
    driver.getData(
      spec.paths.data,
      () => {
        outstanding--;
        completed++;
        recorder.recordSince(t0);
      },
      () => {
        outstanding--;
        errors++;
      },
    );
  };

  const window = new MeasureWindow();
  let opened = false;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      if (!opened && now - start >= spec.warmupMs) {
        opened = true;
        recorder.recording = true;
        window.open(completed, errors);
      }
      const due = Math.floor(((Math.min(now, end) - start) * rate) / 1000);
      while (sent < due) {
        sent++;
        sendOne();
      }
      if (now >= end) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const measured = window.close(completed, errors);
  recorder.recording = false;
  const drainDeadline = Date.now() + 10_000;
  while (outstanding > 0 && Date.now() < drainDeadline) await sleep(5);
  return { ok: true, ...measured, latency: recorder.summary(), note: `${rate} req/s` };
}
