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
    const us = Number((process.hrtime.bigint() - startNs) / 1000n);
    this.histogram.recordValue(Math.max(1, us));
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
