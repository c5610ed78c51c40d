/**
 * A queue takes a chroot view (`client.chroot(root)`) where it takes a client, on a real server: its item
 * nodes land under the view's root, and what is put through the view is consumed through it.
 */
import { describe, expect, it } from 'vitest';
import { DistributedQueue, stringSerializer } from '../src/index.js';
import { consumeItems, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

describe('a queue on a chroot view', () => {
  it('puts under the view root and consumes what it put', async () => {
    await fixture.client.create('/tenant-queue', null);
    await using view = fixture.client.chroot('/tenant-queue');
    const queue = new DistributedQueue(view, '/jobs', { serializer: stringSerializer });
    await queue.put('one');
    const [item] = await fixture.client.getChildren('/tenant-queue/jobs');
    expect(item).toMatch(/^queue-\d{10}$/);
    expect(await consumeItems(queue, 1)).toEqual(['one']);
    expect(await fixture.client.getChildren('/tenant-queue/jobs')).toEqual([]);
    await queue.close();
  });
});
