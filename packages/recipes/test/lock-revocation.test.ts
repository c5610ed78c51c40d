/**
 * Lock revocation (Curator's Revocable / Revoker) on a real server: a revocable holder whose node receives
 * `__REVOKE__` hears it and releases, so the one who asked gets the lock; and the same with Curator
 * (java/drivers-revocation/RevocationHandler.java; 5.9.0 by default, also run on Debian's 5.4.0) on either
 * side: ours revokes a Curator holder, and Curator's Revoker revokes ours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRecipeArgumentError } from '../src/internal-common/recipe-errors.js';
import { InterProcessMutex } from '../src/locks/interprocess-mutex.js';
import { InterProcessReadWriteLock } from '../src/locks/interprocess-read-write-lock.js';
import { REVOKE_MESSAGE, Revoker } from '../src/locks/revocation.js';
import { deferred, useRealServer } from './helpers.js';
import { type JavaDriver, startJavaDriver } from './java/java-driver.js';

describe('lock revocation', () => {
  const zk = useRealServer({ clients: 3 });
  let java: JavaDriver;
  beforeAll(async () => {
    java = await startJavaDriver({
      connectString: zk.server.connectString,
      handlers: ['drivers-revocation/RevocationHandler.java'],
    });
  });
  afterAll(() => java?.close());

  it('a revocable holder releases when asked, and the one who asked gets the lock', async () => {
    const path = '/revoke/node-only';
    const holder = new InterProcessMutex(zk.client(0), path);
    const revoked = deferred();
    holder.makeRevocable(async (lock) => {
      await lock.release();
      revoked.resolve();
    });
    expect(await holder.acquire()).toBe(true);
    const node = holder.lockNodePath as string;
    expect((await zk.client(0).getData(node)).data).toHaveLength(0); // revocable: no data, as Curator's

    const waiter = new InterProcessMutex(zk.client(1), path);
    const waiting = waiter.acquire({ timeoutMs: 30_000 });
    const [holderNode] = await waiter.getParticipantNodes();
    expect(holderNode).toBe(node);
    await Revoker.attemptRevoke(zk.client(1), holderNode as string);
    await revoked.promise;
    expect(await waiting).toBe(true);
    expect(holder.isAcquiredInThisProcess()).toBe(false);
    await waiter.release();
    await Revoker.attemptRevoke(zk.client(1), node); // a node already gone is no error
  });

  it('works on the read-write lock too, and checks its arguments', async () => {
    const path = '/revoke/rw';
    const rw = new InterProcessReadWriteLock(zk.client(0), path);
    const revoked = deferred();
    rw.writeLock().makeRevocable((lock) => {
      void lock.release().then(() => revoked.resolve());
    });
    await rw.writeLock().acquire();
    const reader = new InterProcessReadWriteLock(zk.client(1), path);
    const reading = reader.readLock().acquire({ timeoutMs: 30_000 });
    await Revoker.attemptRevoke(zk.client(1), rw.writeLock().lockNodePath as string);
    await revoked.promise;
    expect(await reading).toBe(true);
    await reader.readLock().release();

    expect(() => rw.readLock().makeRevocable('no' as never)).toThrow(InvalidRecipeArgumentError);
    await expect(Revoker.attemptRevoke(zk.client(0), 'relative')).rejects.toBeInstanceOf(
      InvalidRecipeArgumentError,
    );
  });

  it('revokes a Curator holder: Curator hears the request, releases, and ours gets the lock', async () => {
    const path = '/revoke/curator-holds';
    expect(await java.call('holder', 'rmutex.acquire', path, -1)).toBe('true');
    const ours = new InterProcessMutex(zk.client(0), path);
    const waiting = ours.acquire({ timeoutMs: 60_000 });
    const [javaNode] = (await java.call('observer', 'participants', path)).split(',');
    expect((await zk.client(0).getData(javaNode as string)).data).toHaveLength(0);
    await Revoker.attemptRevoke(zk.client(0), javaNode as string);
    expect(new TextDecoder().decode((await zk.client(1).getData(javaNode as string)).data)).toBe(
      new TextDecoder().decode(REVOKE_MESSAGE),
    );
    await java.waitForEvent(`revoke holder ${path}`);
    await java.call('holder', 'release', path); // Curator's mutex is released by the thread that holds it
    expect(await waiting).toBe(true);
    await ours.release();
  });

  it('is revoked by Curator: ours hears Revoker.attemptRevoke, releases, and Curator gets the lock', async () => {
    const path = '/revoke/ours-holds';
    const ours = new InterProcessMutex(zk.client(0), path);
    const revoked = deferred();
    ours.makeRevocable(async (lock) => {
      await lock.release();
      revoked.resolve();
    });
    expect(await ours.acquire()).toBe(true);
    const javaWaiting = java.call('waiter', 'mutex.acquire', path, 60_000);
    const node = ours.lockNodePath as string;
    await java.call('revoker', 'revoke', node);
    await revoked.promise;
    expect(await javaWaiting).toBe('true');
    expect((await java.call('observer', 'participants', path)).split(',')).toHaveLength(1);
    await java.call('waiter', 'release', path);
  });
});
