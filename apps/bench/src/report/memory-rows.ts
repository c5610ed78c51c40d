/** The memory scenario's tables, shared by the terminal table and the Markdown report. */
import {
  HEAP_CLIENTS,
  type MemoryCaseSummary,
  type MemoryContenderSummary,
  unitName,
} from '../memory-figures.js';
import type { Spread } from '../stats.js';
import { supports } from '../types.js';
import { contenderLabel, int } from './format.js';

/** How the memory figures were taken, for the reader of a report. */
export const memoryMethod =
  'Growth from a connected session baseline, both sides after full GCs, in a process of its own per cell. ' +
  'Heap: V8 heap used + external (Node), used heap after System.gc() (Java, a different runtime: shown, not ranked); ' +
  'the median of 3 tries after a smaller warm-up try. RSS: the first try (a process keeps freed memory, so ' +
  'later tries would reuse it); for a Node client an upper bound, as V8 keeps the pages it filled while ' +
  'arming after the GC emptied them. The native package keeps its watches and requests in its C client, ' +
  'outside the V8 heap: only its RSS shows them, so its heap is not compared. The Java client reads replies ' +
  'on its own thread while it is measured: its in-flight figure is a lower bound.';

/** bytes with their spread over rounds: "265 (250–280)" */
function bytes(s: Spread | undefined, digits = 0): string {
  if (!s) return '-';
  const f = (n: number) => (digits > 0 ? n.toFixed(digits) : int(n));
  return s.min === s.max ? f(s.median) : `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
}

function label(c: MemoryContenderSummary): string {
  return c.contender === 'java' ? `${contenderLabel.java}, JVM` : contenderLabel[c.contender];
}

/** Header and rows (cells as text) of one memory case. */
export function memoryRows(summary: MemoryCaseSummary): { header: string[]; rows: string[][] } {
  const recursive = summary.case.memoryCell === 'recursive';
  const unit = unitName(summary.case);
  const events = int(summary.case.inFlight);
  const header = recursive
    ? [
        'contender',
        'heap after arming, B',
        'RSS after arming, B',
        `heap after ${events} events, B`,
        'RSS after events, B',
        'heap kept per event, B',
      ]
    : ['contender', `heap B/${unit}`, `RSS B/${unit}`, 'heap ÷ ours'];
  const ours = summary.contenders.find((c) => c.contender === 'ours')?.heapPerUnit?.median;
  const rows = summary.contenders
    .filter((c) => supports(c.contender, 'memory'))
    .map((c) => {
      if (!c.heapPerUnit) {
        const why = c.unsupported ? `n/a: ${c.failure ?? ''}` : `failed: ${c.failure ?? ''}`;
        return [label(c), why.length > 70 ? `${why.slice(0, 67)}...` : why, ...header.slice(2).map(() => '')];
      }
      if (recursive) {
        const a = c.afterEvents;
        return [
          label(c),
          bytes(c.heapPerUnit),
          bytes(c.rssPerUnit),
          bytes(a?.heap),
          bytes(a?.rss),
          bytes(a?.heapPerEvent, 2),
        ];
      }
      // only where the heap holds the client's state: the native package's is in C, Java's in a JVM
      const vsOurs =
        c.contender === 'ours' || ours === undefined || ours <= 0
          ? ''
          : HEAP_CLIENTS.includes(c.contender)
            ? `${(c.heapPerUnit.median / ours).toFixed(2)}×`
            : c.contender === 'java'
              ? 'n/a (JVM)'
              : 'n/a (C memory: see RSS)';
      return [label(c), bytes(c.heapPerUnit), bytes(c.rssPerUnit), vsOurs];
    });
  return { header, rows };
}
