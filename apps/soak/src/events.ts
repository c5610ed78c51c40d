/**
 * The soak's event log: one JSON object per line, written by every process (Node workers, Java drivers, the
 * runner). Zxids travel as decimal strings (64-bit); the checker orders by them, never by the `t` wall clock.
 */

/** A resource held under a fencing rule or a lease limit. */
export const HeldResource = {
  mutex: 'mutex',
  semaphore: 'semaphore',
  leader: 'leader',
} as const;
export type HeldResource = (typeof HeldResource)[keyof typeof HeldResource];

interface Base {
  /** Wall-clock ms, for humans only. */
  t: number;
  /** The process that wrote it (`node-1`, `java-2`, `runner`). */
  proc: string;
}

/** A hold began (lock acquired, lease granted, leadership gained). */
export interface AcquireEvent extends Base {
  kind: 'acquire';
  resource: HeldResource;
  hold: string;
  token: number;
  node: string;
  /** czxid of the lock, lease or latch node. */
  czxid: string;
  session: string;
}

/** A write made while holding, accepted by the server: `zxid` is the mzxid of the write. */
export interface HoldWriteEvent extends Base {
  kind: 'hold-write';
  resource: HeldResource;
  hold: string;
  token: number;
  zxid: string;
  /** Fenced writes went through the guarded resource's token check. */
  fenced: boolean;
}

/** The guarded resource refused a write: a newer token was already recorded (fencing doing its job). */
export interface GuardRejectEvent extends Base {
  kind: 'guard-reject';
  resource: HeldResource;
  hold: string;
  token: number;
  seen: number;
}

/** A hold ended (released, or lost and noticed). */
export interface ReleaseEvent extends Base {
  kind: 'release';
  resource: HeldResource;
  hold: string;
  reason: string;
}

/** A queue put acknowledged by the server. */
export interface PutEvent extends Base {
  kind: 'put';
  id: string;
}

/** A queue item handed to a consumer. */
export interface ConsumeEvent extends Base {
  kind: 'consume';
  id: string;
}

/** An acknowledged write to the plain-data tree: the state the server promised. */
export interface WriteEvent extends Base {
  kind: 'write';
  path: string;
  op: 'create' | 'set' | 'delete';
  data?: string;
  /** czxid (create) or mzxid (set) of the write; the delete reply carries none. */
  zxid?: string;
}

/** A write whose outcome is unknown (its reply was lost): the path is left out of the final check. */
export interface WriteUnknownEvent extends Base {
  kind: 'write-unknown';
  path: string;
  error: string;
}

/** A node as a snapshot records it. */
export interface SnapshotNode {
  data: string;
  mzxid: string;
}

/** What a CuratorCache held at the end (after the quiet period). */
export interface CacheDumpEvent extends Base {
  kind: 'cache-dump';
  root: string;
  nodes: Record<string, SnapshotNode>;
}

/** The runner's fresh read of the plain-data tree at the end. */
export interface FinalReadEvent extends Base {
  kind: 'final-read';
  root: string;
  nodes: Record<string, SnapshotNode>;
}

/** A fault the runner injected. */
export interface FaultEvent extends Base {
  kind: 'fault';
  fault: string;
  target: string;
}

/** Any other operation, counted in the summary (`op` names it). */
export interface OpEvent extends Base {
  kind: 'op';
  op: string;
  ok: boolean;
  error?: string;
}

export type SoakEvent =
  | AcquireEvent
  | HoldWriteEvent
  | GuardRejectEvent
  | ReleaseEvent
  | PutEvent
  | ConsumeEvent
  | WriteEvent
  | WriteUnknownEvent
  | CacheDumpEvent
  | FinalReadEvent
  | FaultEvent
  | OpEvent;

/** Parses JSON lines; a torn last line (a killed process) is skipped, not fatal. */
export function parseEventLog(text: string): SoakEvent[] {
  const events: SoakEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as SoakEvent);
    } catch {
      // a line cut short by a kill: nothing to check in it
    }
  }
  return events;
}
