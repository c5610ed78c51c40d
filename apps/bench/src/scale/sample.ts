/** Process figures the scale cells take: memory after full GCs, CPU and wall time, lag percentiles. */
import v8 from 'node:v8';
import type { LatencySummary } from '../types.js';

/**
 * Heap and RSS after two full GCs; the worker runs with --expose-gc. Heap is V8's used heap plus external
 * memory, by default without V8's code space: the JVM's heap figure the Java scale cells report leaves
 * compiled code out too (it sits in the code cache), so counting V8's JIT code would charge ours for what
 * Java's figure never shows. The memory cells, among Node clients only, count it.
 */
export function memoryNow(withCode = false): { heap: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('memory and scale cells need node --expose-gc');
  gc();
  gc(); // the first can leave work for finalizers and weak callbacks
  const usage = process.memoryUsage();
  const code = withCode ? undefined : v8.getHeapSpaceStatistics().find((s) => s.space_name === 'code_space');
  return { heap: usage.heapUsed - (code?.space_used_size ?? 0) + usage.external, rss: usage.rss };
}

/** This process's CPU (user + system) in µs since `from`. */
export const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return used.user + used.system;
};

/** Percentiles of µs values (nearest rank), as the latency figures of other cells. */
export function percentiles(values: number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) =>
    sorted.length === 0
      ? 0
      : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
  return {
    count: sorted.length,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: sorted.length === 0 ? 0 : Math.round(sorted[sorted.length - 1] as number),
  };
}

/** Epoch ms with µs resolution, comparable across processes of one machine (a JVM writes the same clock). */
export const epochMs = () => performance.timeOrigin + performance.now();
