/**
 * What a run of a script produces: per session, the ordered stream of results and watch events, as the
 * user's code saw them (a result is recorded by the first reaction on the call's promise, or by the Java
 * callback; an event by the watcher). Both runners emit the same JSON shapes, raw: zxids, times and session
 * ids are still in, the normalizer takes out what legitimately differs (accepted-differences.ts).
 */
import type { MultiOp, Op, Script } from './script.js';

/** One thing a session's user code saw. */
export type Entry =
  | { kind: 'result'; step: number; op: string; value: unknown }
  | {
      kind: 'error';
      step: number;
      op: string;
      /** The error code name (`NONODE`, ...); Java: `KeeperException.Code` name, or the thrown class. */
      code: string;
      /** multi: each op's code ('OK' for none). */
      detail?: string[];
      /** Ours: an `InvalidArgumentError`. */
      argument?: boolean;
      /** Java: thrown by the call itself, or called back on the caller's thread. */
      synchronous?: boolean;
    }
  | {
      kind: 'event';
      watcher: string;
      type: string;
      path: string;
      /** The zxid that fired it, as a decimal string; Java 3.9+: always there (-1, NO_ZXID, for none). */
      zxid?: string;
    };

/** The streams of one script run, one per session. */
export interface ScriptRun {
  side: 'ours' | 'java';
  /** The fresh base path the run used. */
  base: string;
  streams: Entry[][];
  /** Why the run could not finish, if it could not. */
  failure?: string;
}

/** A Stat as both runners report it: every field, 64-bit ones as decimal strings. */
export interface RawStat {
  czxid: string;
  mzxid: string;
  ctime: string;
  mtime: string;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: string;
  dataLength: number;
  numChildren: number;
  pzxid: string;
}

/** The path a session's call uses for a script path (script.ts explains the three forms). */
export function clientPath(base: string, chroot: string | null, path: string): string {
  if (path.startsWith('!')) return path.slice(1);
  if (chroot !== null) return path;
  return path === '/' ? base : `${base}${path}`;
}

/** The connect string suffix of a session: its chroot under the base, or none. */
export function chrootOf(base: string, chroot: string | null): string {
  return chroot === null ? '' : `${base}${chroot}`;
}

/** A script op with its paths turned into the session's client paths. */
export function resolveOp(op: Op, base: string, chroot: string | null): Op {
  const p = (path: string) => clientPath(base, chroot, path);
  if (op.op === 'addAuth') return op;
  if (op.op === 'multi') {
    return { ...op, ops: op.ops.map((sub): MultiOp => ({ ...sub, path: p(sub.path) })) };
  }
  if (op.op === 'multiRead') return { ...op, ops: op.ops.map((sub) => ({ ...sub, path: p(sub.path) })) };
  return { ...op, path: p(op.path) };
}

/** Each op of a script with its global step number, in script order. */
export function numberedOps(script: Script): { step: number; batch: number; op: Op; session: number }[] {
  const out: { step: number; batch: number; op: Op; session: number }[] = [];
  script.batches.forEach((batch, index) => {
    for (const op of batch) out.push({ step: out.length, batch: index, op, session: op.session ?? 0 });
  });
  return out;
}
