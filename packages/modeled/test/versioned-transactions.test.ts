/**
 * versioned() and transactions on a real server: compare-and-set conflicts as BadVersionError, a
 * read-modify-write loop from two sessions that loses no increment, and createOp/updateOp/deleteOp/
 * checkExistsOp in one multi (all or none).
 */
import { BadVersionError, isBadVersion, MultiError, op } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modeled, modelSpec, type VersionedModeledFramework } from '../src/index.js';
import { useRealServer } from './helpers.js';

const real = useRealServer(2);
const Counter = z.object({ n: z.number().int() });
type Counter = z.infer<typeof Counter>;

describe('versioned()', () => {
  it('reads { model, version } and fails a stale write with BadVersionError', async () => {
    const [a, b] = [real.client(0), real.client(1)];
    const spec = modelSpec({ path: '/vt/counter', schema: Counter });
    const mine = modeled(a, spec).versioned();
    const theirs = modeled(b, spec).versioned();
    await mine.set({ model: { n: 0 }, version: -1 });
    const read = await mine.read();
    expect(read).toEqual({ model: { n: 0 }, version: 0 });
    const seen = await theirs.read();
    await theirs.update({ model: { n: 1 }, version: seen.version });
    const stale = await mine.update({ model: { n: 5 }, version: read.version }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(BadVersionError);
    expect(stale).toMatchObject({ code: 'BADVERSION', path: '/vt/counter' });
    expect((await mine.read()).model).toEqual({ n: 1 });
  });

  it('loses no increment in a read-modify-write loop run by two sessions at once', async () => {
    const spec = modelSpec({ path: '/vt/contended', schema: Counter });
    await modeled(real.client(0), spec).set({ n: 0 });
    const increments = async (counter: VersionedModeledFramework<Counter>, times: number) => {
      for (let done = 0; done < times; ) {
        const { model, version } = await counter.read();
        try {
          await counter.update({ model: { n: model.n + 1 }, version });
          done++;
        } catch (error) {
          if (!isBadVersion(error)) throw error;
        }
      }
    };
    await Promise.all([
      increments(modeled(real.client(0), spec).versioned(), 50),
      increments(modeled(real.client(1), spec).versioned(), 50),
    ]);
    // 100 increments and 100 writes: no update applied over another, whatever the conflicts were.
    expect(await modeled(real.client(0), spec).versioned().read()).toEqual({
      model: { n: 100 },
      version: 100,
    });
  });
});

describe('transactions', () => {
  it('runs ops of several frameworks as one multi', async () => {
    const client = real.client(0);
    await client.ensurePath('/vt/tx');
    const accounts = modeled(
      client,
      modelSpec({ path: '/vt/tx/{id}', schema: z.object({ balance: z.number() }) }),
    );
    const alice = accounts.resolved('alice');
    const bob = accounts.resolved('bob');
    await alice.set({ balance: 10 });
    const results = await alice.inTransaction([
      alice.checkExistsOp(0),
      alice.updateOp({ balance: 5 }, 0),
      bob.createOp({ balance: 5 }),
    ]);
    expect(results.map((r) => r.type)).toEqual(['check', 'setData', 'create']);
    expect(await alice.read()).toEqual({ balance: 5 });
    expect(await bob.read()).toEqual({ balance: 5 });

    // A failing op (bob exists) applies nothing.
    const failed = await alice
      .inTransaction([alice.updateOp({ balance: 0 }), bob.createOp({ balance: 99 })])
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(MultiError);
    expect(await alice.read()).toEqual({ balance: 5 });

    const versioned = alice.versioned();
    const current = await versioned.read();
    await alice.inTransaction([
      versioned.updateOp({ model: { balance: 6 }, version: current.version }),
      bob.deleteOp(),
    ]);
    expect(await alice.read()).toEqual({ balance: 6 });
    expect(await bob.checkExists()).toBeNull();
    // Plain client ops mix in.
    await alice.inTransaction([alice.deleteOp(), op.create('/vt/tx/carol', '{"balance":1}')]);
    expect(await accounts.resolved('carol').read()).toEqual({ balance: 1 });
  });
});
