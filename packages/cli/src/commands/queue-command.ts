/**
 * `queue PATH`: the items of a Curator queue in the order consumers take them, each node's batch decoded
 * (how many items, how many bytes), the age of the oldest, and with `--lock-path` the items a lock-safe
 * queue's consumers hold right now (curator/queues.md §8–§12.1). The queue kind is told from the node names:
 * `qn-` SimpleDistributedQueue (raw bytes, no batch); `queue-|<hex>|` delay; `queue-|<id>|` id;
 * `queue-<sign><8 hex><seq>` priority; other `queue-` names a plain DistributedQueue.
 */
import {
  decodeBatch,
  parseDelayEpoch,
  parseIdName,
  parsePriority,
  QUEUE_ITEM_PREFIX,
  SIMPLE_ITEM_PREFIX,
} from '@zkwire/queues';
import { isNoNode } from '@zkwire/zk-wire-client';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { integerFlag } from '../connection-options.js';
import { dataAsText } from '../data-format.js';
import { UsageError } from '../errors.js';
import { hex } from '../stat-format.js';
import { childPath, childrenOrNone, readNodes } from './recipe-nodes.js';

/** The queue recipes `queue` knows. */
export const QUEUE_KINDS = ['distributed', 'priority', 'delay', 'id', 'simple'] as const;
/** One of {@link QUEUE_KINDS}. */
export type QueueKind = (typeof QUEUE_KINDS)[number];

const DELAY_NAME = /^queue-\|[0-9A-F]{8,}\|/;

/** Tells the queue kind from its item names (the first recognisable one decides). */
export function queueKindOf(names: readonly string[]): QueueKind {
  if (names.some((name) => name.startsWith(SIMPLE_ITEM_PREFIX))) return 'simple';
  if (names.some((name) => DELAY_NAME.test(name))) return 'delay';
  if (names.some((name) => name.startsWith(`${QUEUE_ITEM_PREFIX}|`))) return 'id';
  if (names.some((name) => parsePriority(name) !== undefined)) return 'priority';
  return 'distributed';
}

/** The items of a listing in consumption order, foreign names left out. */
export function consumptionOrder(kind: QueueKind, names: readonly string[]): string[] {
  const prefix = kind === 'simple' ? SIMPLE_ITEM_PREFIX : QUEUE_ITEM_PREFIX;
  const items = names.filter((name) => name.startsWith(prefix));
  const natural = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  if (kind === 'delay') return items.sort((a, b) => parseDelayEpoch(a) - parseDelayEpoch(b));
  if (kind === 'id') return items.sort((a, b) => natural(parseIdName(a).cleaned, parseIdName(b).cleaned));
  return items.sort(natural);
}

/** One queue node as reported. */
export interface QueueEntry {
  node: string;
  /** Items in the node's batch (1 for a simple queue's node); undefined when the batch is corrupt. */
  items?: number;
  bytes: number;
  ageMs: number;
  /** The first item, as text or hex, cut to 40 characters. */
  preview?: string;
  corrupt?: string;
  priority?: number;
  dueAt?: string;
  id?: string;
  /** The session of the consumer holding the item (lock-safe queues, with --lock-path). */
  lockedBy?: string;
}

/** What `queue` reports. */
export interface QueueReport {
  path: string;
  kind: QueueKind;
  nodes: number;
  /** Items in the nodes read (all of them unless --limit cut the list). */
  items: number;
  oldestAgeMs: number | null;
  entries: QueueEntry[];
  /** Children that are not items of this queue (Curator logs and skips them). */
  foreign: string[];
  /** Lock nodes under --lock-path, item name → session. */
  locked?: { node: string; session: string }[];
}

function preview(data: Uint8Array): string {
  const text = dataAsText(data);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function describeBatch(kind: QueueKind, data: Buffer | null, path: string): Partial<QueueEntry> {
  const bytes = data ?? Buffer.alloc(0);
  if (kind === 'simple') return { items: 1, preview: preview(bytes) };
  try {
    const items = decodeBatch(bytes, path);
    return { items: items.length, ...(items[0] ? { preview: preview(items[0]) } : {}) };
  } catch (error) {
    return { corrupt: (error as Error).message };
  }
}

function nameFacts(kind: QueueKind, name: string): Partial<QueueEntry> {
  if (kind === 'priority') {
    const priority = parsePriority(name);
    return priority === undefined ? {} : { priority };
  }
  if (kind === 'delay') {
    const epoch = parseDelayEpoch(name);
    return { dueAt: new Date(epoch).toISOString() };
  }
  if (kind === 'id') return { id: parseIdName(name).id };
  return {};
}

async function lockedItems(context: CommandContext, lockPath: string) {
  const names = await childrenOrNone(context, lockPath);
  const nodes = await readNodes(context, lockPath, names.sort());
  return nodes.map((node) => ({ node: node.name, session: hex(node.stat.ephemeralOwner) }));
}

/** The ages of nodes not read in full (past --limit), from their Stat only. */
async function agesOf(context: CommandContext, path: string, names: readonly string[], now: number) {
  const zk = context.client();
  const stats = await Promise.all(
    names.map((name) =>
      zk.exists(childPath(path, name), context.call).catch((error: unknown) => {
        if (isNoNode(error)) return null;
        throw error;
      }),
    ),
  );
  return stats.flatMap((stat) => (stat ? [now - Number(stat.ctime)] : []));
}

function formatAge(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 120_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

function render(context: CommandContext, report: QueueReport, limit: number): string[] {
  const { colors } = context.out;
  const oldest = report.oldestAgeMs === null ? '' : `, oldest ${formatAge(report.oldestAgeMs)} old`;
  const lines = [
    `${report.path}: ${report.kind} queue, ${report.nodes} nodes, ${report.items} items${oldest}`,
  ];
  report.entries.forEach((entry, index) => {
    const facts = [
      entry.corrupt
        ? colors.red(`corrupt: ${entry.corrupt}`)
        : `${entry.items} item${entry.items === 1 ? '' : 's'}`,
      `${entry.bytes} B`,
      `age ${formatAge(entry.ageMs)}`,
    ];
    if (entry.priority !== undefined) facts.push(`priority ${entry.priority}`);
    if (entry.dueAt !== undefined) facts.push(`due ${entry.dueAt}`);
    if (entry.id !== undefined) facts.push(`id ${entry.id}`);
    if (entry.lockedBy) facts.push(colors.yellow(`locked by ${entry.lockedBy}`));
    const shown = entry.preview === undefined ? '' : `  ${colors.dim(entry.preview)}`;
    lines.push(`  ${String(index + 1).padStart(3)}. ${entry.node}  ${facts.join(', ')}${shown}`);
  });
  if (report.nodes > report.entries.length) {
    lines.push(colors.dim(`  ... ${report.nodes - report.entries.length} more (--limit ${limit})`));
  }
  if (report.foreign.length > 0)
    lines.push(colors.dim(`foreign nodes (skipped by consumers): ${report.foreign.join(', ')}`));
  if (report.locked) lines.push(`locked by consumers: ${report.locked.length}`);
  return lines;
}

const queue: CommandSpec = {
  name: 'queue',
  args: ['<path>'],
  summary: 'items of a Curator queue in consumption order: batches decoded, oldest age, locked items',
  flags: [
    { flags: '--lock-path <path>', description: "a lock-safe queue's lock path: show which items are held" },
    { flags: '--kind <kind>', description: `force the queue kind (${QUEUE_KINDS.join(', ')})` },
    { flags: '--limit <n>', description: 'read at most this many nodes in full (default 100)' },
  ],
  async run(context, [path], flags) {
    const queuePath = path as string;
    if (flags.kind !== undefined && !QUEUE_KINDS.includes(flags.kind as QueueKind)) {
      throw new UsageError(`--kind takes one of ${QUEUE_KINDS.join(', ')}, got "${flags.kind}"`);
    }
    const limit = typeof flags.limit === 'string' ? integerFlag('--limit', flags.limit, 1) : 100;
    const children = await context.client().getChildren(queuePath, context.call);
    const kind = (flags.kind as QueueKind | undefined) ?? queueKindOf(children);
    const ordered = consumptionOrder(kind, children);
    const orderedSet = new Set(ordered);
    const locked =
      typeof flags.lockPath === 'string' ? await lockedItems(context, flags.lockPath) : undefined;
    const lockOwner = new Map(locked?.map((lock) => [lock.node, lock.session]));
    const now = Date.now();
    const nodes = await readNodes(context, queuePath, ordered.slice(0, limit));
    const entries: QueueEntry[] = nodes.map((node) => ({
      node: node.name,
      ...describeBatch(kind, node.data, node.path),
      bytes: node.stat.dataLength,
      ageMs: Math.max(0, now - Number(node.stat.ctime)),
      ...nameFacts(kind, node.name),
      ...(lockOwner.has(node.name) ? { lockedBy: lockOwner.get(node.name) } : {}),
    }));
    const ages = [
      ...entries.map((entry) => entry.ageMs),
      ...(await agesOf(context, queuePath, ordered.slice(limit), now)),
    ];
    const report: QueueReport = {
      path: queuePath,
      kind,
      nodes: ordered.length,
      items: entries.reduce((sum, entry) => sum + (entry.items ?? 0), 0),
      oldestAgeMs: ages.length > 0 ? ages.reduce((a, b) => Math.max(a, b), 0) : null,
      entries,
      foreign: children.filter((name) => !orderedSet.has(name)).sort(),
      ...(locked ? { locked } : {}),
    };
    context.out.result(report, () => render(context, report, limit));
  },
};

/** The queue command. */
export const queueCommands: readonly CommandSpec[] = [queue];
