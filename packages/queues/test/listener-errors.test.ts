/**
 * What a consumer cannot get past is never silent, and never stops it: an onError hook that throws is
 * reported as a process warning ZKWIRE_LISTENER_ERROR while the consumer goes on; without a hook, a consumer
 * error goes to the client's logger, else to a process warning ZKWIRE_QUEUE. Real server.
 */
import { eventually, recordWarnings } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterEach, describe, expect, it } from 'vitest';
import { DistributedQueue, stringSerializer } from '../src/index.js';
import { QueueSharder } from '../src/queue-sharder.js';
import { consumeItems, uniquePath, useQueueServer } from './helpers/fixture.js';
import { allocateQueue } from './helpers/shards.js';

const fixture = useQueueServer();

const warnings = recordWarnings();
afterEach(warnings.clear);

/** Consumes until `count` items were handed over; the handler throws on `failOn`. */
function consumeAll(queue: DistributedQueue<string>, count: number, failOn: string): Promise<string[]> {
  return consumeItems(queue, count, (item) => {
    if (item === failOn) throw new Error(`consumer bug on ${item}`);
  });
}

describe('errors from consumers and hooks (real server)', () => {
  it('an onError hook that throws is a ZKWIRE_LISTENER_ERROR warning, and the consumer goes on', async () => {
    const path = uniquePath('hook-throws');
    const hooked: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: stringSerializer,
      onError: (error) => {
        hooked.push(error);
        throw new Error('hook bug');
      },
    });
    try {
      await queue.putMulti(['a', 'b', 'c']);
      expect(await consumeAll(queue, 3, 'b')).toEqual(['a', 'b', 'c']);
      expect(hooked).toEqual([new Error('consumer bug on b')]);
      await warnings.delivered();
      const reported = warnings.withCode('ZKWIRE_LISTENER_ERROR');
      expect(reported.map((warning) => warning.message)).toEqual([
        `queue ${path}: onError hook threw: hook bug`,
      ]);
    } finally {
      await queue.close();
    }
  });

  it('without a hook: a process warning ZKWIRE_QUEUE naming the item', async () => {
    const path = uniquePath('no-hook');
    const queue = new DistributedQueue(fixture.client, path, { serializer: stringSerializer });
    try {
      const node = await queue.put('x');
      expect(await consumeAll(queue, 1, 'x')).toEqual(['x']);
      await warnings.delivered();
      const reported = warnings.withCode('ZKWIRE_QUEUE');
      expect(reported.map((warning) => warning.message)).toEqual([
        `queue ${path}: item ${node}: consumer bug on x`,
      ]);
    } finally {
      await queue.close();
    }
  });

  it("without a hook, with the client's logger: logged there (warn), not a warning", async () => {
    const lines: string[] = [];
    const logged = await connect({
      connectString: fixture.server.connectString,
      logger: { warn: (line: string) => lines.push(line) },
    });
    const path = uniquePath('logger');
    const queue = new DistributedQueue(logged, path, { serializer: stringSerializer });
    try {
      const node = await queue.put('x');
      expect(await consumeAll(queue, 1, 'x')).toEqual(['x']);
      await warnings.delivered();
      expect(lines).toEqual([`zookeeper queues: queue ${path}: item ${node}: consumer bug on x`]);
      expect(warnings.withCode('ZKWIRE_QUEUE')).toEqual([]);
    } finally {
      await queue.close();
      await logged.close();
    }
  });

  it("a QueueSharder's onError that throws: one ZKWIRE_LISTENER_ERROR warning, and the checks go on", async () => {
    const queuePath = uniquePath('sharder-hook');
    const hooked: unknown[] = [];
    const sharder = new QueueSharder(fixture.client, {
      queuePath,
      leaderPath: `${queuePath}-leader`,
      allocateQueue,
      newQueueThreshold: 1,
      thresholdCheckMs: 50,
      maxQueues: 1,
      onError: (error) => {
        hooked.push(error);
        throw new Error('sharder hook bug');
      },
    });
    try {
      await sharder.start();
      await sharder.getQueue().put('x');
      // Every check after the first full one says that no shard may be added: the hook threw, the checks went on.
      await eventually(() => hooked.length >= 2, { timeoutMs: 20_000, what: 'a second check' });
      expect(String(hooked[0])).toContain('maxQueues');
      await warnings.delivered();
      const reported = warnings.withCode('ZKWIRE_LISTENER_ERROR');
      expect(reported.map((warning) => warning.message)).toEqual([
        `QueueSharder ${queuePath}: onError hook threw: sharder hook bug`,
      ]);
    } finally {
      await sharder.close();
    }
  });
});
