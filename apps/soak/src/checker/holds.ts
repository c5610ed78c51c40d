/**
 * Hold rules, judged in the server's order: a hold is alive at least from its first to its last accepted
 * write (the mzxids of writes made while holding). A correct lock, semaphore or latch never lets more such
 * intervals overlap than it has leases, whatever the wall clocks of the processes said.
 */
import type { HeldResource, SoakEvent } from '../events.js';
import { compareZxid, hexZxid, RuleName, type Violation } from './violation.js';

/** One hold as seen through its accepted writes. */
export interface HoldSpan {
  hold: string;
  proc: string;
  token: number;
  first: string;
  last: string;
}

/** The accepted-write span of every hold of `resource`, in order of first write. */
export function holdSpans(events: readonly SoakEvent[], resource: HeldResource): HoldSpan[] {
  const spans = new Map<string, HoldSpan>();
  for (const event of events) {
    if (event.kind !== 'hold-write' || event.resource !== resource) continue;
    const span = spans.get(event.hold);
    if (!span) {
      spans.set(event.hold, {
        hold: event.hold,
        proc: event.proc,
        token: event.token,
        first: event.zxid,
        last: event.zxid,
      });
      continue;
    }
    if (compareZxid(event.zxid, span.first) < 0) span.first = event.zxid;
    if (compareZxid(event.zxid, span.last) > 0) span.last = event.zxid;
  }
  return [...spans.values()].sort((a, b) => compareZxid(a.first, b.first));
}

const describe = (s: HoldSpan) =>
  `${s.hold} (${s.proc}, token ${s.token}, ${hexZxid(s.first)}..${hexZxid(s.last)})`;

/**
 * More than `limit` holds alive at one zxid: for a mutex (limit 1) two holders at once, for a semaphore more
 * holders than leases. Reports each hold that starts while `limit` others are still alive.
 */
export function checkHoldLimit(
  events: readonly SoakEvent[],
  resource: HeldResource,
  limit: number,
): Violation[] {
  const rule = limit === 1 ? RuleName.mutualExclusion : RuleName.leaseLimit;
  const violations: Violation[] = [];
  let alive: HoldSpan[] = [];
  for (const span of holdSpans(events, resource)) {
    alive = alive.filter((other) => compareZxid(other.last, span.first) > 0);
    if (alive.length >= limit) {
      violations.push({
        rule,
        detail: `${resource}: ${describe(span)} began while ${alive.length} other hold(s) were alive: ${alive
          .map(describe)
          .join(', ')} (limit ${limit})`,
      });
    }
    alive.push(span);
  }
  return violations;
}

/** Two processes claiming leadership under the same term (the latch node's sequence number). */
export function checkOneLeaderPerTerm(events: readonly SoakEvent[]): Violation[] {
  const byTerm = new Map<number, Set<string>>();
  for (const span of holdSpans(events, 'leader')) {
    const procs = byTerm.get(span.token) ?? new Set<string>();
    procs.add(span.proc);
    byTerm.set(span.token, procs);
  }
  const violations: Violation[] = [];
  for (const [term, procs] of byTerm) {
    if (procs.size > 1) {
      violations.push({
        rule: RuleName.oneLeaderPerTerm,
        detail: `leader term ${term} claimed by ${[...procs].join(', ')}`,
      });
    }
  }
  return violations;
}
