/**
 * Compares the normalized streams of the two sides, session by session, and names every difference: a wrong
 * result, an entry only one side saw (a lost or an extra event or result), a swapped pair.
 */
import type { NormalEntry } from './accepted-differences.js';
import type { NormalStream } from './normalize.js';

/** One difference found. */
export interface Difference {
  session: number;
  kind: 'wrong-result' | 'missing-in-ours' | 'extra-in-ours' | 'swapped' | 'different';
  /** Index in the Java stream (ordered part), or -1 for the unordered part. */
  index: number;
  java?: NormalEntry;
  ours?: NormalEntry;
}

/** JSON with sorted keys, so that equal values print equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

const same = (a: NormalEntry | undefined, b: NormalEntry | undefined) =>
  a !== undefined && b !== undefined && canonical(a) === canonical(b);
const sameStep = (a: NormalEntry, b: NormalEntry) =>
  a.kind !== 'event' && b.kind !== 'event' && a.step === b.step;

function compareOrdered(session: number, java: NormalEntry[], ours: NormalEntry[]): Difference[] {
  const out: Difference[] = [];
  let i = 0;
  let j = 0;
  const findFrom = (list: NormalEntry[], from: number, entry: NormalEntry) => {
    for (let k = from; k < list.length; k++) if (same(list[k], entry)) return k;
    return -1;
  };
  while (i < java.length || j < ours.length) {
    const a = java[i];
    const b = ours[j];
    if (same(a, b)) {
      i++;
      j++;
    } else if (a === undefined) {
      out.push({ session, kind: 'extra-in-ours', index: i, ours: b });
      j++;
    } else if (b === undefined) {
      out.push({ session, kind: 'missing-in-ours', index: i, java: a });
      i++;
    } else if (same(a, ours[j + 1]) && same(java[i + 1], b)) {
      out.push({ session, kind: 'swapped', index: i, java: a, ours: b });
      i += 2;
      j += 2;
    } else if (a.kind !== 'event' && b.kind !== 'event' && sameStep(a, b)) {
      out.push({ session, kind: 'wrong-result', index: i, java: a, ours: b });
      i++;
      j++;
    } else {
      const inOurs = findFrom(ours, j + 1, a);
      const inJava = findFrom(java, i + 1, b);
      if (inJava < 0 && (inOurs >= 0 || b.kind === 'event')) {
        out.push({ session, kind: 'extra-in-ours', index: i, ours: b });
        j++;
      } else if (inOurs < 0 && (inJava >= 0 || a.kind === 'event')) {
        out.push({ session, kind: 'missing-in-ours', index: i, java: a });
        i++;
      } else {
        // Both appear later on the other side (or neither does): report the pair and move on.
        out.push({ session, kind: 'different', index: i, java: a, ours: b });
        i++;
        j++;
      }
    }
  }
  return out;
}

/** Every difference between the two sides' normalized streams (empty when they agree). */
export function compareStreams(java: NormalStream[], ours: NormalStream[]): Difference[] {
  const out: Difference[] = [];
  const sessions = Math.max(java.length, ours.length);
  for (let s = 0; s < sessions; s++) {
    const a = java[s] ?? { ordered: [], unordered: [] };
    const b = ours[s] ?? { ordered: [], unordered: [] };
    out.push(...compareOrdered(s, a.ordered, b.ordered));
    const left = a.unordered.map(canonical);
    const right = b.unordered.map(canonical);
    a.unordered.forEach((e, k) => {
      if (!right.includes(left[k] as string))
        out.push({ session: s, kind: 'missing-in-ours', index: -1, java: e });
    });
    b.unordered.forEach((e, k) => {
      if (!left.includes(right[k] as string))
        out.push({ session: s, kind: 'extra-in-ours', index: -1, ours: e });
    });
  }
  return out;
}

/** A readable report: the seed (if any), each difference, and both streams around the first one. */
export function formatDifferences(
  title: string,
  differences: Difference[],
  java: NormalStream[],
  ours: NormalStream[],
): string {
  const lines = [`${title}: ${differences.length} difference(s) between ours and the Java client`];
  for (const d of differences.slice(0, 12)) {
    lines.push(
      `  session ${d.session} #${d.index} ${d.kind}: java ${d.java ? canonical(d.java) : '-'} | ours ${d.ours ? canonical(d.ours) : '-'}`,
    );
  }
  const first = differences[0];
  if (first !== undefined) {
    const show = (stream: NormalEntry[]) => stream.map((e, k) => `    ${k}: ${canonical(e)}`).join('\n');
    lines.push(`  java session ${first.session}:\n${show(java[first.session]?.ordered ?? [])}`);
    lines.push(`  ours session ${first.session}:\n${show(ours[first.session]?.ordered ?? [])}`);
  }
  return lines.join('\n');
}
