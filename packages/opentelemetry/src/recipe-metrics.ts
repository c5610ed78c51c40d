/**
 * The recipes' and queues' channels as metrics. A hold's path is its own sequential node (one per
 * acquisition), so it is never an attribute; election and queue paths are few and fixed, so they are.
 */
import type { Attributes, Meter } from '@opentelemetry/api';
// Types only, erased at build: the recipes and queues need not be installed (the channels are found by name).
import type { QueueMessage } from '@zkwire/queues';
import type { HoldMessage, LeadershipMessage } from '@zkwire/recipes';
import { subscribe, unsubscribeAll } from './guarded.js';
import { counter, histogram } from './instruments.js';
import { AttributeName, SiblingChannelName } from './names.js';

/** Subscribes the recipe and queue metrics; returns the function that unsubscribes them all. */
export function recordRecipeMetrics(meter: Meter): () => void {
  const holdEvents = counter(meter, 'holdEvents');
  const holdWaitDuration = histogram(meter, 'holdWaitDuration');
  const holdDuration = histogram(meter, 'holdDuration');
  const leadershipChanges = counter(meter, 'leadershipChanges');
  const queueBatches = counter(meter, 'queueBatches');
  const queueItems = counter(meter, 'queueItems');

  return unsubscribeAll([
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
  ]);
}
