/**
 * The messages of the recipes' and queues' channels, as those packages publish them (their `HoldMessage`,
 * `LeadershipMessage` and `QueueMessage`). Copied as structural types so this package does not depend on
 * either; the tests assign the real types to these, so the compiler tells when the two drift apart.
 */

/** `zkwire:recipes:hold`: a lock or lease acquired, released or lost. */
export interface HoldMessage {
  event: 'acquired' | 'released' | 'lost';
  kind: 'lock' | 'lease';
  path: string;
  waitMs?: number;
  heldMs?: number;
  reason?: string;
}

/** `zkwire:recipes:leadership`: leadership gained or lost. */
export interface LeadershipMessage {
  event: 'gained' | 'lost';
  recipe: 'LeaderLatch' | 'LeaderSelector';
  path: string;
  id: string;
  reason?: string;
}

/** `zkwire:queues:queue`: a batch put, consumed or requeued. */
export interface QueueMessage {
  event: 'put' | 'consumed' | 'requeued';
  queuePath: string;
  node: string;
  items: number;
}
