/** The end-of-run report: operations per kind, faults per kind, violations, the replay command. */
import type { Violation } from './checker/index.js';
import type { SoakEvent } from './events.js';

/** Counts of what the processes did, by kind (holds by resource, failed calls by op). */
export function countOperations(events: readonly SoakEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const e of events) {
    if (e.kind === 'acquire') bump(`${e.resource} holds`);
    else if (e.kind === 'hold-write') bump(`${e.resource} writes while holding`);
    else if (e.kind === 'guard-reject') bump(`${e.resource} stale tokens refused`);
    else if (e.kind === 'put') bump('queue puts');
    else if (e.kind === 'consume') bump('queue items consumed');
    else if (e.kind === 'write') bump(`data ${e.op}s`);
    else if (e.kind === 'write-unknown') bump('data writes of unknown outcome');
    else if (e.kind === 'op' && !e.ok) bump(`failed ${e.op}`);
    else if (e.kind === 'cache-dump') bump('caches compared with the final read');
    else if (e.kind === 'final-read') counts.set('nodes read back at the end', Object.keys(e.nodes).length);
  }
  return new Map([...counts].sort(([a], [b]) => a.localeCompare(b)));
}

export function countFaults(events: readonly SoakEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events) if (e.kind === 'fault') counts.set(e.fault, (counts.get(e.fault) ?? 0) + 1);
  return counts;
}

/** Operations that count toward the total (failed calls and refusals excluded). */
export function totalOperations(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const [key, n] of counts)
    if (!key.startsWith('failed') && !key.includes('unknown') && !key.includes('refused')) total += n;
  return total;
}

export function formatSummary(
  events: readonly SoakEvent[],
  violations: readonly Violation[],
  replay: string,
  notes: readonly string[] = [],
): string {
  const ops = countOperations(events);
  const faults = countFaults(events);
  const lines = ['', 'operations:'];
  for (const [key, n] of ops) lines.push(`  ${key.padEnd(36)} ${n}`);
  lines.push(`  ${'total'.padEnd(36)} ${totalOperations(ops)}`);
  lines.push('faults injected:');
  for (const [key, n] of faults) lines.push(`  ${key.padEnd(36)} ${n}`);
  for (const note of notes) lines.push(`note: ${note}`);
  lines.push(`violations = ${violations.length}`);
  for (const v of violations.slice(0, 50)) lines.push(`  [${v.rule}] ${v.detail}`);
  if (violations.length > 50) lines.push(`  ... ${violations.length - 50} more`);
  lines.push(`replay: ${replay}`);
  return lines.join('\n');
}
