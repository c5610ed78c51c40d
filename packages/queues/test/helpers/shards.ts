/** Shared bits of the QueueSharder tests: Curator's shard name, a string-queue allocator, draining shards. */
import { DistributedQueue } from '../../src/distributed-queue.js';
import type { SharderClient } from '../../src/queue-sharder.js';
import { stringSerializer } from '../../src/serializers.js';

/** Curator's shard name: `queue-` and a UUID. */
export const SHARD_NAME = /^queue-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Each shard a DistributedQueue of UTF-8 strings (the Java driver's serializer). */
export const allocateQueue = (client: SharderClient, path: string) =>
  new DistributedQueue(client, path, { serializer: stringSerializer });

/** Takes every item from every shard with our consumers until `count` came; `left`: nodes still in them. */
export async function drainShards(client: SharderClient, shards: readonly string[], count: number) {
  const got: string[] = [];
  const stop = new AbortController();
  const queues = shards.map((path) => allocateQueue(client, path));
  await Promise.all(
    queues.map((queue) =>
      queue.consume(
        (item) => {
          got.push(item);
          if (got.length >= count) stop.abort();
        },
        { signal: stop.signal },
      ),
    ),
  );
  await Promise.all(queues.map((queue) => queue.close()));
  let left = 0;
  for (const shard of shards) left += (await client.getChildren(shard)).length;
  return { items: got, left };
}
