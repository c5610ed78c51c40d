/**
 * A lock-safe consumer that finds an item locked by another consumer asks who holds the lock (`exists` with
 * a watch). A connection lost on that call must be retried like the lock create's own: the consumer ends only
 * on an expired session or a closed client. Found by the soak run (docs/reliability.md).
 */
import { eventually, startFaultProxy } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { expect, it } from 'vitest';
import { DistributedQueue, stringSerializer } from '../src/index.js';
import { uniquePath, useQueueServer } from './helpers/fixture.js';

const fixture = useQueueServer();

const EXISTS_OPCODE = 3;

it('a connection lost while checking an item lock held by another consumer does not end the consumer', async () => {
  const path = uniquePath('lock-exists-loss');
  const producer = new DistributedQueue(fixture.client, path, {
    serializer: stringSerializer,
    lockPath: `${path}-locks`,
  });
  const node = await producer.put('x');
  const lockPath = `${path}-locks/${node.slice(path.length + 1)}`;
  // Another consumer holds the item's lock.
  await fixture.client.create(lockPath, null, { mode: 'ephemeral' });

  const proxy = await startFaultProxy({ host: fixture.server.host, port: fixture.server.port });
  const viaProxy = await connect({ connectString: proxy.connectString, sessionTimeoutMs: 10_000 });
  const lockPathBytes = Buffer.from(lockPath);
  let cutExists = 0;
  // The first `exists` of the lock node reaches the server as garbage: the server drops the connection, so
  // the call fails with a connection loss.
  proxy.corrupt('toServer', (chunk) => {
    const isLockExists =
      chunk.length >= 12 && chunk.readInt32BE(8) === EXISTS_OPCODE && chunk.includes(lockPathBytes);
    if (!isLockExists || cutExists > 0) return chunk;
    cutExists += 1;
    return Buffer.alloc(chunk.length, 0xff);
  });
  const consumer = new DistributedQueue(viaProxy, path, {
    serializer: stringSerializer,
    lockPath: `${path}-locks`,
    onError: () => {},
  });
  try {
    const delivered: string[] = [];
    const stop = new AbortController();
    const consuming = consumer.consume(
      (item) => {
        delivered.push(item);
        stop.abort();
      },
      { signal: stop.signal },
    );
    await eventually(async () => cutExists === 1, {
      timeoutMs: 20_000,
      what: 'the exists of the lock cut once',
    });
    // The other consumer lets go (its lock node goes, as when it dies): ours must take the item.
    await fixture.client.delete(lockPath);
    await consuming;
    expect(delivered).toEqual(['x']);
    expect(await fixture.client.getChildren(path)).toEqual([]);
  } finally {
    await consumer.close();
    await producer.close();
    await viaProxy.close();
    await proxy.close();
  }
});
