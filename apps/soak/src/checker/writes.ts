/**
 * Durability and cache rules, on the plain-data tree. Each path is written by one process only, one write at a
 * time, so its last acknowledged write (in zxid order, deletes in log order) says what must be there at the
 * end. Paths with a write of unknown outcome (reply lost) are left out: either state is correct for them.
 */
import type { FinalReadEvent, SnapshotNode, SoakEvent, WriteEvent } from '../events.js';
import { RuleName, type Violation } from './violation.js';

/** The state each acknowledged path must have at the end: its data, or `null` for deleted. */
export function expectedState(events: readonly SoakEvent[]): Map<string, string | null> {
  const unknown = new Set<string>();
  const last = new Map<string, WriteEvent>();
  for (const event of events) {
    if (event.kind === 'write-unknown') unknown.add(event.path);
    if (event.kind === 'write') last.set(event.path, event);
  }
  const expected = new Map<string, string | null>();
  for (const [path, write] of last) {
    if (unknown.has(path)) continue;
    expected.set(path, write.op === 'delete' ? null : (write.data ?? ''));
  }
  return expected;
}

/** The runner's final read (the last one, should there be several). */
export function finalRead(events: readonly SoakEvent[]): FinalReadEvent | undefined {
  return events.filter((e): e is FinalReadEvent => e.kind === 'final-read').at(-1);
}

/** Every acknowledged write is visible in the final read: created/set data present, deletes gone. */
export function checkCommittedWrites(events: readonly SoakEvent[]): Violation[] {
  const read = finalRead(events);
  const expected = expectedState(events);
  if (!read) {
    return expected.size === 0
      ? []
      : [{ rule: RuleName.writeNotVisible, detail: 'no final read was logged: nothing could be verified' }];
  }
  const violations: Violation[] = [];
  for (const [path, data] of expected) {
    const found = read.nodes[path];
    if (data === null && found) {
      violations.push({
        rule: RuleName.writeNotVisible,
        detail: `${path}: deleted (acknowledged), still there`,
      });
    } else if (data !== null && !found) {
      violations.push({ rule: RuleName.writeNotVisible, detail: `${path}: written (acknowledged), missing` });
    } else if (data !== null && found && found.data !== data) {
      violations.push({
        rule: RuleName.writeNotVisible,
        detail: `${path}: acknowledged data ${JSON.stringify(data)}, read ${JSON.stringify(found.data)}`,
      });
    }
  }
  return violations;
}

const same = (a: SnapshotNode, b: SnapshotNode) => a.data === b.data && a.mzxid === b.mzxid;

/** Each cache's final content equals the fresh read: same paths, same data, same mzxid. */
export function checkCaches(events: readonly SoakEvent[]): Violation[] {
  const read = finalRead(events);
  const violations: Violation[] = [];
  for (const dump of events) {
    if (dump.kind !== 'cache-dump') continue;
    if (!read) {
      violations.push({
        rule: RuleName.cacheDiverged,
        detail: `${dump.proc}: no final read to compare with`,
      });
      continue;
    }
    const paths = new Set([...Object.keys(dump.nodes), ...Object.keys(read.nodes)]);
    const wrong: string[] = [];
    for (const path of paths) {
      const cached = dump.nodes[path];
      const fresh = read.nodes[path];
      if (!cached) wrong.push(`${path} missing from the cache`);
      else if (!fresh) wrong.push(`${path} in the cache, gone from the server`);
      else if (!same(cached, fresh))
        wrong.push(`${path} cached mzxid ${cached.mzxid}, server ${fresh.mzxid}`);
    }
    if (wrong.length > 0) {
      violations.push({
        rule: RuleName.cacheDiverged,
        detail: `${dump.proc}: ${wrong.length} node(s) differ: ${wrong.slice(0, 5).join('; ')}`,
      });
    }
  }
  return violations;
}
