/**
 * Recipes take a chroot view (`client.chroot(root)`) wherever they take a client, on a real server: the
 * nodes they make land under the view's root, and the view's paths are all they see.
 */
import { describe, expect, it } from 'vitest';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { SharedCount } from '../src/shared/shared-count.js';
import { type TestClient, useRealServer } from './helpers.js';

const env = useRealServer({ clients: 1 });

describe('recipes on a chroot view', () => {
  it('InterProcessMutex locks under the view root', async () => {
    const client = env.client(0) as TestClient;
    await client.create('/tenant-lock', null);
    await using view = client.chroot('/tenant-lock');
    const mutex = new InterProcessMutex(view, '/locks/m');
    expect(await mutex.acquire({ timeoutMs: 10_000 })).toBe(true);
    const [contender] = await client.getChildren('/tenant-lock/locks/m');
    expect(contender).toMatch(/lock-\d{10}$/);
    expect(await view.getChildren('/locks/m')).toEqual([contender]);
    await mutex.release();
    expect(await client.getChildren('/tenant-lock/locks/m')).toEqual([]);
  });

  it('SharedCount reads and writes its node under the view root', async () => {
    const client = env.client(0) as TestClient;
    await client.create('/tenant-count', null);
    await using view = client.chroot('/tenant-count');
    await using count = new SharedCount(view, '/counters/c', 5);
    await count.start();
    expect(count.count).toBe(5);
    await count.setCount(7);
    expect([...(await client.getData('/tenant-count/counters/c')).data]).toEqual([0, 0, 0, 7]);
  });
});
