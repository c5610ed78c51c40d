/**
 * The types and small helpers the accepted-difference list (accepted-differences.ts) is written with.
 */
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

/** One accepted difference. */
export interface AcceptedDifference {
  id: string;
  /** Which side's stream it changes. */
  side: 'ours' | 'java' | 'both';
  /** The review: why this difference is legitimate. */
  why: string;
  apply(stream: NormalEntry[], context: NormalizeContext): NormalEntry[];
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
