/**
 * The guarded resource's promise: once it accepted token T, it never accepts a lower one. Checked on the
 * accepted fenced writes in mzxid order (the server's order), so a stale holder whose write slipped in after
 * a newer holder's is caught even if its process believed it still held.
 */
import type { HeldResource, SoakEvent } from '../events.js';
import { compareZxid, hexZxid, RuleName, type Violation } from './violation.js';

export function checkFencing(events: readonly SoakEvent[], resource: HeldResource): Violation[] {
  const writes = events
    .filter((e) => e.kind === 'hold-write' && e.resource === resource && e.fenced)
    .map((e) => e as Extract<SoakEvent, { kind: 'hold-write' }>)
    .sort((a, b) => compareZxid(a.zxid, b.zxid));
  const violations: Violation[] = [];
  let highest: (typeof writes)[number] | undefined;
  for (const write of writes) {
    if (highest && write.token < highest.token) {
      violations.push({
        rule: RuleName.staleToken,
        detail: `${resource}: token ${write.token} (${write.hold}, ${write.proc}) accepted at ${hexZxid(write.zxid)} after token ${highest.token} (${highest.hold}, ${highest.proc}) at ${hexZxid(highest.zxid)}`,
      });
      continue;
    }
    highest = write;
  }
  return violations;
}
