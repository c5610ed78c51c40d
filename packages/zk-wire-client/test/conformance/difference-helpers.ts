/**
 * The types and small helpers the accepted-difference list (accepted-differences.ts) is written with.
 */
import { versionAtLeast } from '@zkwire/testing';
import type { Op, Script } from './script.js';
import type { Entry } from './stream.js';

/** What an entry may look at. */
export interface NormalizeContext {
  side: 'ours' | 'java';
  /** The run's fresh base path. */
  base: string;
  /** The session's chroot under the base, or null. */
  chroot: string | null;
  script: Script;
  /** The script op of each step. */
  opOf(step: number): Op | undefined;
  session: number;
}

/** A normalized entry: `unordered` ones are compared by step, outside the ordered stream. */
export type NormalEntry = Entry & { unordered?: true };

/**
 * The releases an accepted difference applies to, by the version of the side whose behaviour it is about: the
 * Java client's or the server's (a run's Java client is of the server's release, so both are the run's).
 */
export interface ReleaseRange {
  of: 'Java client' | 'server';
  /** The first release it applies to (every earlier one when absent). */
  from?: string;
  /** The first release it no longer applies to (every later one when absent). */
  before?: string;
}

/** One accepted difference. */
export interface AcceptedDifference {
  id: string;
  /** Which side's stream it changes. */
  side: 'ours' | 'java' | 'both';
  /** The review: why this difference is legitimate. */
  why: string;
  /** Where it applies; every release when absent. */
  releases?: ReleaseRange;
  apply(stream: NormalEntry[], context: NormalizeContext): NormalEntry[];
}

/** Whether `difference` applies to a run of `release`. */
export function appliesTo(difference: AcceptedDifference, release: string): boolean {
  const range = difference.releases;
  if (range === undefined) return true;
  if (range.from !== undefined && !versionAtLeast(release, range.from)) return false;
  return range.before === undefined || !versionAtLeast(release, range.before);
}

/** The releases of a difference in words, as docs/contracts.md gives them. */
export function releasesText(difference: AcceptedDifference): string {
  const range = difference.releases;
  if (range === undefined) return 'every release';
  const from = range.from === undefined ? '' : ` ${range.from}`;
  if (range.before === undefined) return `${range.of}${from} and later`;
  return range.from === undefined
    ? `${range.of} before ${range.before}`
    : `${range.of}${from} up to, not including, ${range.before}`;
}

/** Applies `f` to every string inside a JSON value. */
export const mapStrings = (value: unknown, f: (s: string) => string): unknown => {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
};

/** Removes a path prefix: the prefix itself becomes '/'. */
export const stripPrefix = (prefix: string) => (s: string) =>
  s === prefix ? '/' : s.startsWith(`${prefix}/`) ? s.slice(prefix.length) : s;

/** Applies `f` to each result's value and each event's path. */
export const mapValues = (stream: NormalEntry[], f: (value: unknown, entry: NormalEntry) => unknown) =>
  stream.map((e): NormalEntry => {
    if (e.kind === 'result') return { ...e, value: f(e.value, e) };
    if (e.kind === 'event') return { ...e, path: f(e.path, e) as string };
    return e;
  });

/** The Stat fields that say when, not what. */
export const STAT_TIMES = new Set(['czxid', 'mzxid', 'pzxid', 'ctime', 'mtime']);
/** Whether a JSON object is a Stat as the runners print it. */
export const isStat = (v: object) => 'ephemeralOwner' in v && 'dataLength' in v;
/** Applies `f` to every Stat inside a JSON value. */
export const mapStats = (value: unknown, f: (stat: Record<string, unknown>) => unknown): unknown => {
  if (Array.isArray(value)) return value.map((v) => mapStats(v, f));
  if (value !== null && typeof value === 'object') {
    if (isStat(value)) return f(value as Record<string, unknown>);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStats(v, f)]));
  }
  return value;
};

/** The *WatchRemoved event types. */
export const REMOVED_EVENTS = new Set(['dataWatchRemoved', 'childWatchRemoved', 'persistentWatchRemoved']);
/** A sort key for entries. */
export const key = (e: Entry) => JSON.stringify(e);

/** Watcher names that a session uses only for persistent-recursive watches. */
export function recursiveOnly(script: Script, session: number): Set<string> {
  const recursive = new Set<string>();
  const other = new Set<string>();
  for (const op of script.batches.flat()) {
    if ((op.session ?? 0) !== session || !('watch' in op) || op.watch === undefined) continue;
    if (op.op === 'addWatch' && op.mode === 'persistent-recursive') recursive.add(op.watch);
    else if (op.op !== 'removeWatches') other.add(op.watch);
  }
  return new Set([...recursive].filter((w) => !other.has(w)));
}
