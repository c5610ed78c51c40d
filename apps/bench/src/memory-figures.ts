/**
 * The memory scenario's arithmetic, from the raw tries of each cell to the report: the median over tries of
 * each cell's growth divided by its units (bytes per watch, per request in flight), then the median and
 * min-max over rounds, and the target "ours the lowest of the Node clients", cell by cell.
 */
import type { BenchCase } from './scenarios.js';
import { median, type Observation, type Spread, spread } from './stats.js';
import type { TargetCheck } from './targets.js';
import type { ContenderId, MemoryTries } from './types.js';

/** The Node clients the RSS target compares (Java is a different runtime: shown, not compared). */
export const NODE_CLIENTS: readonly ContenderId[] = ['ours', 'node-zookeeper-client', 'zookeeper-native'];
/**
 * The Node clients the heap target compares: those that keep their state on the V8 heap. The native package
 * keeps its watches and requests in its C client, which the heap figure cannot see (only RSS does), so
 * ranking it by heap would crown memory the figure leaves out.
 */
export const HEAP_CLIENTS: readonly ContenderId[] = ['ours', 'node-zookeeper-client'];

/** One cell's figures: bytes per unit, the median over its tries. */
export interface MemoryPerUnit {
  heap: number;
  rss: number;
  /** the recursive cell, after the events: growth from the baseline, and what each event left behind */
  afterEvents?: { heap: number; rss: number; heapPerEvent: number; rssPerEvent: number };
}

/**
 * A cell's figures per unit. Heap: the median over tries of growth ÷ units (a full GC brings the heap back
 * to the same baseline before each try). RSS: the first try's growth ÷ units, since a process does not give
 * memory back to the system when it frees it (malloc's free lists, V8's pages): later tries reuse what the
 * first one freed and show less than a process that arms its watches once. Undefined when the cell has no try.
 */
export function perUnit(tries: MemoryTries): MemoryPerUnit | undefined {
  const firstRss = tries.rssBytes[0];
  if (tries.heapBytes.length === 0 || firstRss === undefined || tries.units <= 0) return undefined;
  const heap = median(tries.heapBytes) / tries.units;
  const rss = firstRss / tries.units;
  const after = tries.afterEvents;
  const afterFirstRss = after?.rssBytes[0];
  if (!after || after.heapBytes.length === 0 || afterFirstRss === undefined || after.events <= 0) {
    return { heap, rss };
  }
  // Per try, so that one try's baseline serves both of its figures.
  const heapPerEvent = median(after.heapBytes.map((h, i) => (h - (tries.heapBytes[i] ?? h)) / after.events));
  return {
    heap,
    rss,
    afterEvents: {
      heap: median(after.heapBytes),
      rss: afterFirstRss,
      heapPerEvent,
      rssPerEvent: (afterFirstRss - firstRss) / after.events,
    },
  };
}

/** One contender in one memory case, over rounds. */
export interface MemoryContenderSummary {
  contender: ContenderId;
  rounds: number;
  heapPerUnit?: Spread;
  rssPerUnit?: Spread;
  afterEvents?: { heap: Spread; rss: Spread; heapPerEvent: Spread; rssPerEvent: Spread };
  failure?: string;
  unsupported?: boolean;
}

/** One memory case: every contender. */
export interface MemoryCaseSummary {
  case: BenchCase;
  contenders: MemoryContenderSummary[];
}

function spreadOf(values: number[]): Spread {
  return spread(values) as Spread;
}

function summarizeContender(contender: ContenderId, observations: Observation[]): MemoryContenderSummary {
  const figures = observations.flatMap((o) => {
    const f = o.result.ok && o.result.memory ? perUnit(o.result.memory) : undefined;
    return f ? [f] : [];
  });
  const summary: MemoryContenderSummary = { contender, rounds: figures.length };
  if (figures.length === 0) {
    const failed = observations.flatMap((o) => (o.result.ok ? [] : [o.result]));
    summary.failure = failed[0]?.error ?? 'no figures';
    if (failed.length > 0 && failed.every((f) => f.unsupported)) summary.unsupported = true;
    return summary;
  }
  summary.heapPerUnit = spreadOf(figures.map((f) => f.heap));
  summary.rssPerUnit = spreadOf(figures.map((f) => f.rss));
  const after = figures.flatMap((f) => (f.afterEvents ? [f.afterEvents] : []));
  if (after.length > 0) {
    summary.afterEvents = {
      heap: spreadOf(after.map((a) => a.heap)),
      rss: spreadOf(after.map((a) => a.rss)),
      heapPerEvent: spreadOf(after.map((a) => a.heapPerEvent)),
      rssPerEvent: spreadOf(after.map((a) => a.rssPerEvent)),
    };
  }
  return summary;
}

/** Summarizes the memory cases, contenders in the given order. */
export function summarizeMemory(
  cases: readonly BenchCase[],
  contenders: readonly ContenderId[],
  observations: readonly Observation[],
): MemoryCaseSummary[] {
  return cases
    .filter((c) => c.kind === 'memory')
    .map((benchCase) => {
      const mine = observations.filter((o) => o.caseKey === benchCase.key);
      return {
        case: benchCase,
        contenders: contenders.map((c) =>
          summarizeContender(
            c,
            mine.filter((o) => o.contender === c),
          ),
        ),
      };
    });
}

/** What one unit is called in a case's figures. */
export function unitName(benchCase: BenchCase): string {
  if (benchCase.memoryCell === 'inFlight') return 'request';
  return 'watch';
}

/** "ours the lowest of the Node clients" for one figure of one case. */
function lowest(
  summary: MemoryCaseSummary,
  figure: 'heap' | 'RSS',
  value: (c: MemoryContenderSummary) => number | undefined,
): TargetCheck {
  const unit = unitName(summary.case);
  const clients = figure === 'heap' ? HEAP_CLIENTS : NODE_CLIENTS;
  const whom = figure === 'heap' ? 'the Node clients with their state on the heap' : 'the Node clients';
  const target = `${summary.case.key}: ${figure}/${unit} ours the lowest of ${whom}`;
  const ours = summary.contenders.find((c) => c.contender === 'ours');
  const oursValue = ours ? value(ours) : undefined;
  const others = summary.contenders.flatMap((c) => {
    const v = c.contender !== 'ours' && clients.includes(c.contender) ? value(c) : undefined;
    return v === undefined ? [] : [{ contender: c.contender, value: v }];
  });
  if (oursValue === undefined || others.length === 0)
    return { target, measured: '-', status: 'not measured' };
  const shown = [{ contender: 'ours', value: oursValue }, ...others]
    .map(
      (o) =>
        `${o.contender === 'node-zookeeper-client' ? 'nzc' : o.contender === 'zookeeper-native' ? 'native' : o.contender} ${Math.round(o.value)}`,
    )
    .join(', ');
  const met = others.every((o) => oursValue <= o.value);
  return { target, measured: `${shown} B`, status: met ? 'met' : 'missed' };
}

/**
 * A persistent watch must keep nothing per event. Anything kept per event would be an object of some tens of
 * bytes at least; what remains after 100,000 events is one-time growth of a few hundred KB (compiled code,
 * grown arrays: 153, 291 and 185 KB after 10,000, 50,000 and 100,000 events in one check, not proportional),
 * so the bound is 8 bytes of heap per event, median over rounds.
 */
export const RETAINED_PER_EVENT_MAX = 8;

/** The memory targets: per cell, heap and RSS per unit, ours the lowest of the Node clients. */
export function checkMemoryTargets(summaries: readonly MemoryCaseSummary[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const summary of summaries) {
    if (summary.case.memoryCell === 'recursive') {
      // No other Node client has addWatch: the target here is that events leave nothing behind.
      const ours = summary.contenders.find((c) => c.contender === 'ours')?.afterEvents?.heapPerEvent;
      checks.push({
        target: `${summary.case.key}: heap kept per event handled by ours < ${RETAINED_PER_EVENT_MAX} B`,
        measured: ours === undefined ? '-' : `${ours.median.toFixed(2)} B`,
        status: ours === undefined ? 'not measured' : ours.median < RETAINED_PER_EVENT_MAX ? 'met' : 'missed',
      });
      continue;
    }
    checks.push(lowest(summary, 'heap', (c) => c.heapPerUnit?.median));
    checks.push(lowest(summary, 'RSS', (c) => c.rssPerUnit?.median));
  }
  return checks;
}
