/** Lock-safe queues are at-least-once: every acknowledged put must have been consumed by the end of the drain. */
import type { SoakEvent } from '../events.js';
import { RuleName, type Violation } from './violation.js';

export function checkQueue(events: readonly SoakEvent[]): Violation[] {
  const consumed = new Set<string>();
  for (const event of events) if (event.kind === 'consume') consumed.add(event.id);
  const violations: Violation[] = [];
  for (const event of events) {
    if (event.kind === 'put' && !consumed.has(event.id)) {
      violations.push({
        rule: RuleName.queueItemLost,
        detail: `item ${event.id} (put by ${event.proc}) was never consumed`,
      });
    }
  }
  return violations;
}
