/**
 * `locks PATH`: who holds a Curator lock and who waits, in the order they will get it, with their session
 * ids. The layout tells the recipe (curator/locks.md §2–§4):
 * - InterProcessMutex (and LeaderSelector): `PATH/_c_<uuid>-lock-<seq>`, the lowest sequence holds it;
 * - InterProcessReadWriteLock: `__READ__`/`__WRIT__` nodes in one queue; a writer holds only at the head,
 *   readers hold while no writer is ahead of them;
 * - InterProcessSemaphoreV2 / SemaphoreMutex: `PATH/leases` (leases) and `PATH/locks` (a mutex that
 *   acquirers queue on, one at a time). How many leases the semaphore allows is not stored in ZooKeeper:
 *   `--max-leases` says which lease nodes hold and which wait.
 */
import { sortContenders } from '@zkwire/recipes';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { integerFlag } from '../connection-options.js';
import {
  type ContenderView,
  childPath,
  childrenOrNone,
  contenderLine,
  contenderView,
  readNodes,
} from './recipe-nodes.js';

const LOCK_NAME = 'lock-';
const LEASE_NAME = 'lease-';
const READ_NAME = '__READ__';
const WRITE_NAME = '__WRIT__';

/** The recipe a lock path holds, told from its children's names. */
export type LockKind = 'mutex' | 'read-write' | 'semaphore' | 'none';

/** What `locks` reports. */
export interface LockReport {
  path: string;
  kind: LockKind;
  holders: (ContenderView & { mode?: 'read' | 'write' })[];
  waiters: (ContenderView & { mode?: 'read' | 'write' })[];
  /** Semaphores: the acquirers queued on the internal mutex (the first one is taking a lease now). */
  acquiring?: ContenderView[];
  /**
   * Semaphores: the lease count given with --max-leases, or null when unknown (every lease node is then
   * listed among the holders, though the last ones may be waiting).
   */
  maxLeases?: number | null;
}

/** Tells the recipe from the children of the lock path. */
export function lockKindOf(children: readonly string[]): LockKind {
  if (children.length === 0) return 'none';
  if (children.includes('leases') || children.includes('locks')) return 'semaphore';
  if (children.some((name) => name.includes(READ_NAME) || name.includes(WRITE_NAME))) return 'read-write';
  return 'mutex';
}

async function mutexReport(context: CommandContext, path: string, children: string[]): Promise<LockReport> {
  const nodes = await readNodes(context, path, sortContenders(children, LOCK_NAME));
  const [holder, ...waiters] = nodes.map(contenderView);
  return { path, kind: 'mutex', holders: holder ? [holder] : [], waiters };
}

async function readWriteReport(
  context: CommandContext,
  path: string,
  children: string[],
): Promise<LockReport> {
  const nodes = await readNodes(context, path, sortContenders(children, [READ_NAME, WRITE_NAME]));
  const views = nodes.map((node) => ({
    ...contenderView(node),
    mode: node.name.includes(WRITE_NAME) ? ('write' as const) : ('read' as const),
  }));
  const firstWriter = views.findIndex((view) => view.mode === 'write');
  // A writer holds only at the head; readers hold while no writer comes before them.
  const holding = firstWriter === 0 ? 1 : firstWriter < 0 ? views.length : firstWriter;
  return { path, kind: 'read-write', holders: views.slice(0, holding), waiters: views.slice(holding) };
}

async function semaphoreReport(
  context: CommandContext,
  path: string,
  maxLeases: number | undefined,
): Promise<LockReport> {
  const leasesPath = childPath(path, 'leases');
  const locksPath = childPath(path, 'locks');
  const [leaseNames, lockNames] = await Promise.all([
    childrenOrNone(context, leasesPath),
    childrenOrNone(context, locksPath),
  ]);
  const [leases, acquiring] = await Promise.all([
    readNodes(context, leasesPath, sortContenders(leaseNames, LEASE_NAME)),
    readNodes(context, locksPath, sortContenders(lockNames, LOCK_NAME)),
  ]);
  const holding = maxLeases === undefined ? leases.length : Math.min(maxLeases, leases.length);
  return {
    path,
    kind: 'semaphore',
    holders: leases.slice(0, holding).map(contenderView),
    waiters: leases.slice(holding).map(contenderView),
    acquiring: acquiring.map(contenderView),
    maxLeases: maxLeases ?? null,
  };
}

function render(context: CommandContext, report: LockReport): string[] {
  const { colors } = context.out;
  if (report.kind === 'none') return [`${report.path}: no lock nodes (free)`];
  const section = (title: string, views: (ContenderView & { mode?: string })[]) => [
    colors.bold(`${title} (${views.length})`),
    ...views.map((view, index) => {
      const line = contenderLine(context, index, view);
      return view.mode ? `${line}  ${colors.cyan(view.mode)}` : line;
    }),
  ];
  const unknownCount = report.kind === 'semaphore' && report.maxLeases === null;
  const holdersTitle = unknownCount ? 'leases (--max-leases tells holders from waiters)' : 'holders';
  const lines = [`${report.path}: ${report.kind}`, ...section(holdersTitle, report.holders)];
  lines.push(...section('waiting, in order', report.waiters));
  if (report.acquiring) lines.push(...section('queued on the semaphore mutex', report.acquiring));
  return lines;
}

const locks: CommandSpec = {
  name: 'locks',
  args: ['<path>'],
  summary: 'holders and waiters of a Curator mutex, read-write lock or semaphore, in order, with sessions',
  flags: [{ flags: '--max-leases <n>', description: "a semaphore's lease count (not stored in ZooKeeper)" }],
  async run(context, [path], flags) {
    const lockPath = path as string;
    const children = await childrenOrNone(context, lockPath);
    const kind = lockKindOf(children);
    const maxLeases =
      typeof flags.maxLeases === 'string' ? integerFlag('--max-leases', flags.maxLeases, 1) : undefined;
    const reporters: Record<LockKind, () => Promise<LockReport>> = {
      mutex: () => mutexReport(context, lockPath, children),
      'read-write': () => readWriteReport(context, lockPath, children),
      semaphore: () => semaphoreReport(context, lockPath, maxLeases),
      none: async () => ({ path: lockPath, kind, holders: [], waiters: [] }),
    };
    const report = await reporters[kind]();
    context.out.result(report, () => render(context, report));
  },
};

/** The locks command. */
export const lockCommands: readonly CommandSpec[] = [locks];
