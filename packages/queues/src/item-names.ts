/**
 * Node names of Curator's queues (curator/queues.md §8–§12.1) and the order each queue consumes them in.
 * The server appends the 10-digit sequence to every prefix made here.
 */
import { QueueArgumentError } from './errors.js';

/** Every DistributedQueue-family item starts with this; other children are foreign and left alone. */
export const QUEUE_ITEM_PREFIX = 'queue-';
/** SimpleDistributedQueue items start with this. */
export const SIMPLE_ITEM_PREFIX = 'qn-';
const SEPARATOR = '|';

/** Java's `String.compareTo`: UTF-16 code units, which is what JS's `<` compares. */
export function compareNatural(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function hexUpper(value: number, minWidth: number): string {
  return value.toString(16).toUpperCase().padStart(minWidth, '0');
}

/**
 * `queue-` + `1`/`0` (sign) + `%08X` of the 32-bit two's complement, as `DistributedPriorityQueue` writes it,
 * so that a natural sort puts the lowest priority number first.
 */
export function priorityItemPrefix(priority: number): string {
  if (!Number.isInteger(priority) || priority < -0x80000000 || priority > 0x7fffffff) {
    throw new QueueArgumentError('priority', `must be a 32-bit integer, got ${priority}`);
  }
  return `${QUEUE_ITEM_PREFIX}${priority >= 0 ? '1' : '0'}${hexUpper(priority >>> 0, 8)}`;
}

/** The priority encoded in a priority-queue name, or `undefined` for a name without one (e.g. requeued). */
export function parsePriority(name: string): number | undefined {
  const match = /^queue-([01])([0-9A-F]{8})\d{10}$/.exec(name);
  if (!match) return undefined;
  return Number.parseInt(match[2] as string, 16) | 0;
}

/** `queue-|%08X|`: upper-case hex epoch milliseconds, at least 8 digits, as `DistributedDelayQueue` writes it. */
export function delayItemPrefix(delayUntilEpochMs: number): string {
  if (!Number.isSafeInteger(delayUntilEpochMs) || delayUntilEpochMs <= 0) {
    throw new QueueArgumentError('delayUntilEpochMs', `must be a positive integer, got ${delayUntilEpochMs}`);
  }
  return `${QUEUE_ITEM_PREFIX}${SEPARATOR}${hexUpper(delayUntilEpochMs, 8)}${SEPARATOR}`;
}

const JAVA_LONG_HEX = /^[+-]?[0-9a-fA-F]+$/;

/**
 * The due time of a delay-queue name: the hex between the last two `|`, read like Java's
 * `Long.parseLong(hex, 16)`. Anything unreadable (a requeued `queue-<seq>`, a foreign format) is 0, due now.
 */
export function parseDelayEpoch(name: string): number {
  const last = name.lastIndexOf(SEPARATOR);
  const first = last > 0 ? name.lastIndexOf(SEPARATOR, last - 1) : -1;
  if (first <= 0 || last <= first + 1) return 0;
  const text = name.slice(first + 1, last);
  if (!JAVA_LONG_HEX.test(text)) return 0;
  const value = Number.parseInt(text, 16);
  return Math.abs(value) > 2 ** 63 - 1 ? 0 : value;
}

/** `/` and `|` become `_`, as `DistributedIdQueue.fixId` does. */
export function sanitizeId(id: string): string {
  return id.replace(/[/|]/g, '_');
}

/** `queue-|<sanitized id>|`. The id must not be empty. */
export function idItemPrefix(id: string): string {
  if (typeof id !== 'string' || id.length === 0) {
    throw new QueueArgumentError('id', 'must be a non-empty string');
  }
  return `${QUEUE_ITEM_PREFIX}${SEPARATOR}${sanitizeId(id)}${SEPARATOR}`;
}

/**
 * Splits an id-queue name at its first two `|`: `id` between them, `cleaned` the rest (`queue-<seq>`), which
 * is the sort key. A name without two `|` is its own id and key, as in Curator.
 */
export function parseIdName(name: string): { id: string; cleaned: string } {
  const first = name.indexOf(SEPARATOR);
  const second = first < 0 ? -1 : name.indexOf(SEPARATOR, first + 1);
  if (first < 0 || second < 0) return { id: name, cleaned: name };
  return { id: name.slice(first + 1, second), cleaned: name.slice(0, first) + name.slice(second + 1) };
}

/**
 * The prefix a node was created with: its name without the server's 10-character sequence suffix. Used to
 * put undelivered items back with their priority, due time or id intact.
 */
export function createdPrefix(name: string): string {
  return /(\d{10}|-\d{9})$/.test(name) ? name.slice(0, -10) : QUEUE_ITEM_PREFIX;
}

/** How one queue kind names, orders and requeues its items. */
export interface ItemNaming {
  /** The items of a listing (foreign names already removed) in consumption order. Must not mutate. */
  sort(names: readonly string[]): string[];
  /** Epoch ms when the item becomes due; 0 when it is due at once. */
  dueAt(name: string): number;
  /** The prefix a failed batch is re-created under in lock-safe REQUEUE mode. */
  requeuePrefix(name: string): string;
}

/** FIFO by sequence; priority names sort the same way (lowest number first). */
export const naturalNaming: ItemNaming = {
  sort: (names) => [...names].sort(compareNatural),
  dueAt: () => 0,
  requeuePrefix: () => QUEUE_ITEM_PREFIX,
};

/** Numeric by due time; equal times keep the listing's order (Curator does not look at the sequence). */
export const delayNaming: ItemNaming = {
  sort(names) {
    const keyed = names.map((name) => ({ name, epoch: parseDelayEpoch(name) }));
    keyed.sort((a, b) => a.epoch - b.epoch);
    return keyed.map((entry) => entry.name);
  },
  dueAt: parseDelayEpoch,
  requeuePrefix: () => QUEUE_ITEM_PREFIX,
};

/** By the name without its `|id|` part, i.e. by sequence; a requeue keeps the id. */
export const idNaming: ItemNaming = {
  sort(names) {
    const keyed = names.map((name) => ({ name, key: parseIdName(name).cleaned }));
    keyed.sort((a, b) => compareNatural(a.key, b.key));
    return keyed.map((entry) => entry.name);
  },
  dueAt: () => 0,
  requeuePrefix(name) {
    const { id, cleaned } = parseIdName(name);
    return id === cleaned ? QUEUE_ITEM_PREFIX : `${QUEUE_ITEM_PREFIX}${SEPARATOR}${id}${SEPARATOR}`;
  },
};
