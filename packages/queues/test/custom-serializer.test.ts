/**
 * A user-defined serializer through a real queue: its bytes are what goes inside Curator's batch framing, its
 * values come back out, and bytes it refuses are reported with the node's path and moved aside.
 */
import { describe, expect, it } from 'vitest';
import {
  CorruptQueueItemError,
  DistributedQueue,
  decodeBatch,
  encodeBatch,
  type QueueSerializer,
} from '../src/index.js';
import { consumeItems, uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

interface Order {
  id: number;
  quantity: number;
  sku: string;
}

const ORDER_FORMAT = 1;

/** A compact binary form: format byte, uint32 id, uint16 quantity, then the SKU in UTF-8. */
const orderSerializer: QueueSerializer<Order> = {
  serialize(order) {
    const sku = Buffer.from(order.sku, 'utf8');
    const bytes = Buffer.alloc(7 + sku.length);
    bytes.writeUInt8(ORDER_FORMAT, 0);
    bytes.writeUInt32BE(order.id, 1);
    bytes.writeUInt16BE(order.quantity, 5);
    sku.copy(bytes, 7);
    return bytes;
  },
  deserialize(bytes) {
    if (bytes.length < 7 || bytes[0] !== ORDER_FORMAT) throw new Error(`not an order (format ${bytes[0]})`);
    return {
      id: bytes.readUInt32BE(1),
      quantity: bytes.readUInt16BE(5),
      sku: bytes.subarray(7).toString('utf8'),
    };
  },
};

async function take(queue: DistributedQueue<Order>, count: number): Promise<Order[]> {
  return consumeItems(queue, count);
}

describe('a user-defined serializer', () => {
  it('writes its own bytes inside the batch framing and reads them back, in order', async () => {
    const path = uniquePath('custom');
    const queue = new DistributedQueue(fixture.client, path, { serializer: orderSerializer });
    const single: Order = { id: 1, quantity: 3, sku: 'pen-blue' };
    const batch: Order[] = [
      { id: 2, quantity: 0, sku: '' },
      { id: 0xffffffff, quantity: 65535, sku: 'crème brûlée' },
    ];
    const singleNode = await queue.put(single);
    const batchNode = await queue.putMulti(batch);
    // The node data is Curator's batch of exactly the serializer's bytes.
    const singleData = (await fixture.client.getData(singleNode)).data;
    expect(singleData.equals(encodeBatch([orderSerializer.serialize(single)]))).toBe(true);
    const batchItems = decodeBatch((await fixture.client.getData(batchNode)).data);
    expect(batchItems.map((bytes) => orderSerializer.deserialize(bytes))).toEqual(batch);
    expect(batchItems[1]!.subarray(7).toString('utf8')).toBe('crème brûlée');

    expect(await take(queue, 3)).toEqual([single, ...batch]);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });

  it('reports bytes it refuses with the node path, moves that node aside, and goes on', async () => {
    const path = uniquePath('custom-refused');
    const reported: unknown[] = [];
    const queue = new DistributedQueue(fixture.client, path, {
      serializer: orderSerializer,
      onError: (error) => reported.push(error),
    });
    // Well-framed batch, but the item is not in the serializer's format.
    const foreign = encodeBatch([Buffer.from([9, 0, 0])]);
    const badNode = await fixture.client.create(`${path}/queue-`, foreign, {
      mode: 'persistent-sequential',
      createParents: true,
    });
    const good: Order = { id: 7, quantity: 1, sku: 'after' };
    await queue.put(good);
    expect(await take(queue, 1)).toEqual([good]);
    expect(reported).toHaveLength(1);
    const error = reported[0] as CorruptQueueItemError;
    expect(error).toBeInstanceOf(CorruptQueueItemError);
    expect(error.code).toBe('UNDESERIALIZABLE_ITEM');
    expect(error.path).toBe(badNode);
    expect(error.message).toMatch(/not an order \(format 9\)/);
    expect((await fixture.client.getData(error.movedTo!)).data.equals(foreign)).toBe(true);
    expect(await fixture.client.getChildren(path)).toEqual([]);
    await queue.close();
  });
});
