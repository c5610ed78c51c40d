/** The queues' diagnostics channel against a real server: put and consumed. */
import diagnostics from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { DistributedQueue, QueueChannelName, type QueueMessage, stringSerializer } from '../src/index.js';
import { consumeItems, uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

describe('queue diagnostics channel', () => {
  it('publishes each batch put and consumed, with its node and item count', async () => {
    const messages: QueueMessage[] = [];
    const listener = (message: unknown) => messages.push(message as QueueMessage);
    diagnostics.subscribe(QueueChannelName.queue, listener);
    try {
      const path = uniquePath('diag');
      const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
      const node = await queue.putMulti(['a', 'b']);
      const seen = await consumeItems(queue, 2);
      await queue.close();
      expect(seen).toEqual(['a', 'b']);
      expect(messages).toEqual([
        { event: 'put', queuePath: path, node, items: 2 },
        { event: 'consumed', queuePath: path, node, items: 2 },
      ]);
    } finally {
      diagnostics.unsubscribe(QueueChannelName.queue, listener);
    }
  });
});
