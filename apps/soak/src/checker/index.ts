/** Every rule over the merged logs of one run. Pure: the same events always give the same verdict. */
import type { SoakEvent } from '../events.js';
import { checkFencing } from './fencing.js';
import { checkHoldLimit, checkOneLeaderPerTerm } from './holds.js';
import { checkQueue } from './queue.js';
import type { Violation } from './violation.js';
import { checkCaches, checkCommittedWrites } from './writes.js';

export type { RuleName, Violation } from './violation.js';

/** The semaphore's max leases in the soak. */
export const SEMAPHORE_LEASES = 2;

export function checkAll(events: readonly SoakEvent[]): Violation[] {
  return [
    ...checkHoldLimit(events, 'mutex', 1),
    ...checkHoldLimit(events, 'semaphore', SEMAPHORE_LEASES),
    ...checkHoldLimit(events, 'leader', 1),
    ...checkOneLeaderPerTerm(events),
    ...checkFencing(events, 'mutex'),
    ...checkFencing(events, 'leader'),
    ...checkQueue(events),
    ...checkCommittedWrites(events),
    ...checkCaches(events),
  ];
}
