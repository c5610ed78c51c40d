/**
 * The recipes' and queues' channels as metrics. A hold's path is its own sequential node (one per
 * acquisition), so it is never an attribute; election and queue paths are few and fixed, so they are.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
import { subscribe } from './guarded.js';
import { AttributeName, MetricName, SiblingChannelName } from './names.js';
import type { HoldMessage, LeadershipMessage, QueueMessage } from './sibling-messages.js';

/** Lock waits and hold times run from milliseconds to minutes; in seconds. */
const HOLD_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

/** Subscribes the recipe and queue metrics; returns the function that unsubscribes them all. */
export function recordRecipeMetrics(meter: Meter): () => void {
  const holdEvents = meter.createCounter(MetricName.holdEvents, {
    unit: '{event}',
    description: 'Locks and semaphore leases acquired, released and lost.',
  });
  const holdWaitDuration = meter.createHistogram(MetricName.holdWaitDuration, {
    unit: 's',
    description: 'How long each lock or lease acquisition waited.',
    advice: { explicitBucketBoundaries: HOLD_BUCKETS },
  });
  const holdDuration = meter.createHistogram(MetricName.holdDuration, {
    unit: 's',
    description: 'How long a lock or lease was held until released or lost.',
    advice: { explicitBucketBoundaries: HOLD_BUCKETS },
  });
  const leadershipChanges = meter.createCounter(MetricName.leadershipChanges, {
    unit: '{change}',
    description: 'Leadership gained and lost by LeaderLatch and LeaderSelector participants.',
  });
  const queueBatches = meter.createCounter(MetricName.queueBatches, {
    unit: '{batch}',
    description: 'Queue nodes (batches) put, consumed and requeued.',
  });
  const queueItems = meter.createCounter(MetricName.queueItems, {
    unit: '{item}',
    description: 'Queue items put, consumed and requeued.',
  });

  const unsubscribers = [
    subscribe<HoldMessage>(SiblingChannelName.hold, (message) => {
      const kind = { [AttributeName.holdKind]: message.kind };
      const attributes: Attributes = { ...kind, [AttributeName.holdEvent]: message.event };
      if (message.reason !== undefined) attributes[AttributeName.holdReason] = message.reason;
      holdEvents.add(1, attributes);
      if (message.waitMs !== undefined) holdWaitDuration.record(message.waitMs / 1000, kind);
      if (message.heldMs !== undefined) {
        holdDuration.record(message.heldMs / 1000, { ...kind, [AttributeName.holdEvent]: message.event });
      }
    }),
    subscribe<LeadershipMessage>(SiblingChannelName.leadership, (message) => {
      const attributes: Attributes = {
        [AttributeName.leadershipEvent]: message.event,
        [AttributeName.leadershipRecipe]: message.recipe,
        [AttributeName.leadershipPath]: message.path,
      };
      if (message.reason !== undefined) attributes[AttributeName.leadershipReason] = message.reason;
      leadershipChanges.add(1, attributes);
    }),
    subscribe<QueueMessage>(SiblingChannelName.queue, (message) => {
      const attributes: Attributes = {
        [AttributeName.queueEvent]: message.event,
        [AttributeName.queuePath]: message.queuePath,
      };
      queueBatches.add(1, attributes);
      queueItems.add(message.items, attributes);
    }),
  ];
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
