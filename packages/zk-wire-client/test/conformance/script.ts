/**
 * The script model of the differential conformance test: the same operation sequences run through our client
 * and through the Java client of the server's release, and each produces, per session, the ordered stream of results and watch
 * events (see conformance.test.ts).
 *
 * Paths in a script are script paths: a session without a chroot runs under the script's fresh base path (the
 * runner puts the base in front), a session with a chroot connects to `base + chroot` and uses them as they are.
 * A path written with {@link raw} is sent exactly as written (bad paths).
 *
 * A run plays each script as the release has it ({@link forRelease}): a script whose subject came later than
 * the release is left out, and elsewhere the calls the release lacks (neither its server nor its Java client
 * has them) are taken out of the script for both sides.
 */
import { versionAtLeast } from '@zkwire/testing';

/** A create mode, with the client's names. */
export type CreateModeName =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'persistent-ttl'
  | 'persistent-sequential-ttl';

/** One ACL entry as both runners take it (digest ids already computed). */
export interface AclEntry {
  perms: number;
  scheme: string;
  id: string;
}

/** A write op of `multi`. */
export type MultiOp =
  | { type: 'create'; path: string; data?: string; mode?: CreateModeName }
  | { type: 'delete'; path: string; version?: number }
  | { type: 'setData'; path: string; data: string; version?: number }
  | { type: 'check'; path: string; version: number };

/** A read op of `multiRead`. */
export interface MultiReadOp {
  type: 'getData' | 'getChildren';
  path: string;
}

/** The watch types of removeWatches/checkWatches. */
export type WatchTypeName = 'children' | 'data' | 'any';

/** One call. `watch` names a watcher of the session: the same name is the same watcher object. */
export type Op =
  | {
      op: 'create';
      path: string;
      data?: string;
      mode?: CreateModeName;
      ttl?: number;
      acl?: AclEntry[];
      /** create2 (the Stat too) instead of create. */
      stat?: boolean;
    }
  | { op: 'delete'; path: string; version?: number }
  | { op: 'exists' | 'getData' | 'getChildren' | 'getChildren2'; path: string; watch?: string }
  | { op: 'setData'; path: string; data: string; version?: number }
  | { op: 'getACL' | 'sync' | 'getAllChildrenNumber' | 'getEphemerals'; path: string }
  | { op: 'setACL'; path: string; acl: AclEntry[]; version?: number }
  | { op: 'multi'; ops: MultiOp[] }
  | { op: 'multiRead'; ops: MultiReadOp[] }
  | { op: 'addWatch'; path: string; mode: 'persistent' | 'persistent-recursive'; watch: string }
  | { op: 'removeWatches'; path: string; type: WatchTypeName; watch?: string; local?: boolean }
  | { op: 'checkWatches'; path: string; type: WatchTypeName }
  | { op: 'addAuth'; scheme: string; auth: string };

/** An op of one session. */
export type SessionOp = Op & { session?: number };

/**
 * A batch is issued in one go (in one tick for us, back to back for Java) and awaited as a whole before the
 * next batch. A batch holds the ops of one session only, so that what the server sees does not depend on
 * the race between two connections.
 */
export type Batch = SessionOp[];

/** A named sequence of batches over one or more sessions. */
export interface Script {
  name: string;
  /** One entry per session: `null` for no chroot, else the chroot under the base path ('/c'). */
  sessions: (string | null)[];
  batches: Batch[];
  /** Printed on failure, so that a random script can be replayed. */
  seed?: number;
  /** The first release whose server and Java client have what the script is about (every release if absent). */
  since?: string;
}

/** The first server (and Java client) release of each call that not every release has. */
export const OP_SINCE: Partial<Record<Op['op'], string>> = {
  addWatch: '3.6.0',
  multiRead: '3.6.0',
  getEphemerals: '3.6.0',
  getAllChildrenNumber: '3.6.0',
};

/** Whether `release` has the call (its server and its Java client). */
export function releaseHas(release: string, op: Op['op']): boolean {
  const since = OP_SINCE[op];
  return since === undefined || versionAtLeast(release, since);
}

/**
 * The script as `release` plays it: undefined when its subject came later, else without the calls the
 * release lacks (a batch left empty goes too).
 */
export function forRelease(script: Script, release: string): Script | undefined {
  if (script.since !== undefined && !versionAtLeast(release, script.since)) return undefined;
  const batches = script.batches
    .map((batch) => batch.filter((op) => releaseHas(release, op.op)))
    .filter((batch) => batch.length > 0);
  return { ...script, batches };
}

/** The scripts `release` plays (see {@link forRelease}). */
export function scriptsFor(scripts: readonly Script[], release: string): Script[] {
  return scripts.flatMap((script) => forRelease(script, release) ?? []);
}

/** Marks a path to be sent exactly as written, without the base path in front (bad paths). */
export function raw(path: string): string {
  return `!${path}`;
}

/** Batches of one op each: the awaited-one-by-one form. */
export function oneByOne(...ops: SessionOp[]): Batch[] {
  return ops.map((op) => [op]);
}

/** Every watcher name a script uses, per session (both runners create them up front). */
export function watcherNames(script: Script): Set<string>[] {
  const names = script.sessions.map(() => new Set<string>());
  for (const batch of script.batches) {
    for (const op of batch) {
      if ('watch' in op && op.watch !== undefined) names[op.session ?? 0]?.add(op.watch);
    }
  }
  return names;
}
