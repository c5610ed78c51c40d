import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '../types.js';

/** An HDR histogram of latencies in microseconds (1 µs to 60 s, 3 significant digits). */
export class LatencyRecorder {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 3,
  });
  /** only samples taken inside the measured window count */
  recording = false;

  /** Records the time since `startNs` (a `process.hrtime.bigint()` reading). */
  recordSince(startNs: bigint): void {
    if (!this.recording) return;
    this.recordBetween(startNs, process.hrtime.bigint());
  }

  /** Records the time from `startNs` to `endNs` (both `process.hrtime.bigint()` readings). */
  recordBetween(startNs: bigint, endNs: bigint): void {
    if (!this.recording) return;
    const us = Number((endNs - startNs) / 1000n);
    this.histogram.recordValue(Math.max(1, us));
  }

  /** Adds the samples `other` recorded (a measured turn's, to the cell's). */
  add(other: LatencyRecorder): void {
    this.histogram.add(other.histogram);
  }

  summary(): LatencySummary {
    const h = this.histogram;
    return {
      count: h.totalCount,
      p50: h.getValueAtPercentile(50),
      p90: h.getValueAtPercentile(90),
      p99: h.getValueAtPercentile(99),
      p999: h.getValueAtPercentile(99.9),
      max: h.maxValue,
    };
  }
}

/**
 * The note of an open-loop cell: its rate, how late the pacer got requests out (intended to actual send:
 * the timer tick, plus any stall of the event loop), and the latency from the actual send, which leaves the
 * pacer's tick out and so shows the client and server alone (the cell's percentiles run from the intended
 * time, so that a client that stalls pays for every request it delayed).
 */
export function openLoopNote(rate: number, sendLag: LatencyRecorder, fromSend: LatencyRecorder): string {
  const lag = sendLag.summary();
  const sent = fromSend.summary();
  return (
    `${rate} req/s; send lag behind the intended time p50 ${lag.p50} µs, p99 ${lag.p99} µs; ` +
    `latency from the actual send p50 ${sent.p50} µs, p99 ${sent.p99} µs`
  );
}

/**
 * An open loop's recorders: latency from the intended send time (the cell's percentiles), the pacer's send lag
 * behind that time, and latency from the actual send (both for the note).
 */
export class OpenLoopRecorders {
  readonly latency = new LatencyRecorder();
  readonly sendLag = new LatencyRecorder();
  readonly fromSend = new LatencyRecorder();

  /** `recording`: whether they count from the start (a turn's recorders, which record by request) */
  constructor(recording = false) {
    for (const r of this.all()) r.recording = recording;
  }

  all(): LatencyRecorder[] {
    return [this.latency, this.sendLag, this.fromSend];
  }

  /** Records one request: due at `dueNs`, sent at `sentNs`, its reply in at `doneNs` (hrtime readings). */
  recordReply(dueNs: bigint, sentNs: bigint, doneNs: bigint): void {
    this.latency.recordBetween(dueNs, doneNs);
    this.fromSend.recordBetween(sentNs, doneNs);
  }

  add(other: OpenLoopRecorders): void {
    this.latency.add(other.latency);
    this.sendLag.add(other.sendLag);
    this.fromSend.add(other.fromSend);
  }

  note(rate: number): string {
    return openLoopNote(rate, this.sendLag, this.fromSend);
  }
}
