/**
 * The recipes' diagnostics channels (`node:diagnostics_channel`); names and messages are a public contract
 * (docs/contracts.md, "Diagnostics channels"). Nothing is built while a channel has no subscriber.
 */
import diagnostics from 'node:diagnostics_channel';

/** The channel names (stable). */
export const RecipeChannelName = {
  /** Locks and semaphore leases: acquired, released, lost. */
  hold: 'zkwire:recipes:hold',
  /** LeaderLatch and LeaderSelector: gained, lost. */
  leadership: 'zkwire:recipes:leadership',
} as const;

/** A lock or lease changing hands. */
export interface HoldMessage {
  event: 'acquired' | 'released' | 'lost';
  /** 'lock' (mutex, read-write lock halves) or 'lease' (semaphore). */
  kind: 'lock' | 'lease';
  /** The held node. */
  path: string;
  /** acquired: how long the acquisition waited. */
  waitMs?: number;
  /** released and lost: how long it was held until then. */
  heldMs?: number;
  /** lost: why (suspended, lost, deleted). */
  reason?: string;
}

/** Leadership gained or ended. */
export interface LeadershipMessage {
  event: 'gained' | 'lost';
  recipe: 'LeaderLatch' | 'LeaderSelector';
  /** The election path. */
  path: string;
  /** The participant id. */
  id: string;
  /** lost: why (suspended, lost, closed, ...), when known. */
  reason?: string;
}

const holdChannel = diagnostics.channel(RecipeChannelName.hold);
const leadershipChannel = diagnostics.channel(RecipeChannelName.leadership);

/** Publishes a hold event when someone listens. */
export function publishHold(message: () => HoldMessage): void {
  if (holdChannel.hasSubscribers) holdChannel.publish(message());
}

/** Publishes a leadership event when someone listens. */
export function publishLeadership(message: () => LeadershipMessage): void {
  if (leadershipChannel.hasSubscribers) leadershipChannel.publish(message());
}
