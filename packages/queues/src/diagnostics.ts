/**
 * The queues' diagnostics channel (`node:diagnostics_channel`); its name and messages are a public contract
 * (docs/contracts.md, "Diagnostics channels"). Nothing is built while it has no subscriber.
 */
import diagnostics from 'node:diagnostics_channel';

/** The channel name (stable). */
export const QueueChannelName = { queue: 'zkwire:queues:queue' } as const;

/** A batch put, consumed, requeued or put back. */
export interface QueueMessage {
  event: 'put' | 'consumed' | 'requeued';
  /** The queue path. */
  queuePath: string;
  /** The batch node: the created one for put, the consumed or requeued one otherwise. */
  node: string;
  /** Items in the batch (put, consumed) or sent back (requeued). */
  items: number;
}

const queueChannel = diagnostics.channel(QueueChannelName.queue);

/** Publishes a queue event when someone listens. */
export function publishQueue(message: () => QueueMessage): void {
  if (queueChannel.hasSubscribers) queueChannel.publish(message());
}
