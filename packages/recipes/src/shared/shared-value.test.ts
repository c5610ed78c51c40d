/**
 * SharedValue and SharedCount across the wrap of the data version (CURATOR-688). A real server needs 2^31
 * writes to get there, so the node here is an in-memory one whose version starts just below the wrap and
 * moves as ZooKeeper's does (`version + 1` in int32, `mzxid` growing); the real-server behaviour of the same
 * code is in test/curator-fixes.test.ts and test/atomic-shared.test.ts.
 */
import { BadVersionError, NodeExistsError } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import type { RecipeWatcher } from '../internal-common/zk-client.js';
import { SharedCount } from './shared-count.js';
import { SharedValue } from './shared-value.js';
import type { ValueClient, ValueStat } from './value-client.js';

/** A Stat of a node nobody wrote yet; each test sets the fields it needs. */
const EMPTY_STAT: ValueStat = {
  czxid: 0n,
  mzxid: 0n,
  ctime: 0n,
  mtime: 0n,
  version: 0,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: 0,
  numChildren: 0,
  pzxid: 0n,
};

const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

/** One znode that already exists, with ZooKeeper's version arithmetic and one-shot data watches. */
function nodeAtVersion(version: number) {
  const node = { data: Uint8Array.of(0, 0, 0, 0), version, mzxid: 100n };
  const watchers: RecipeWatcher[] = [];
  const sent: { op: string; version?: number }[] = [];
  const stat = (): ValueStat => ({
    ...EMPTY_STAT,
    version: node.version,
    mzxid: node.mzxid,
  });
  const write = (data: Uint8Array) => {
    node.data = Uint8Array.from(data);
    node.version = (node.version + 1) | 0;
    node.mzxid += 1n;
    for (const watcher of watchers.splice(0)) watcher({ type: 'dataChanged', path: '/v' });
    return stat();
  };
  const client = {
    sessionId: 1n,
    state: 'connected',
    on: () => client,
    off: () => client,
    connected: async () => {},
    create: async () => {
      throw new NodeExistsError();
    },
    exists: async () => stat(),
    getData: async (_path: string, options?: { watch?: RecipeWatcher }) => {
      sent.push({ op: 'getData' });
      if (options?.watch) watchers.push(options.watch);
      return { data: Uint8Array.from(node.data), stat: stat() };
    },
    setData: async (_path: string, data: Uint8Array | string | null, options?: { version?: number }) => {
      sent.push({ op: 'setData', ...(options?.version === undefined ? {} : { version: options.version }) });
      const expected = options?.version ?? -1;
      if (expected !== -1 && expected !== node.version) {
        throw new BadVersionError();
      }
      return write(data as Uint8Array);
    },
  } as unknown as ValueClient;
  return { client, node, sent, write };
}

/** Lets the watch-triggered re-read (a chain of promises) finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedValue across the data version wrap (CURATOR-688)', () => {
  it('keeps taking new values when the version wraps from 2147483647 to -2147483648', async () => {
    const { client, node, write } = nodeAtVersion(INT32_MAX - 1);
    await using value = new SharedValue(client, '/v', Uint8Array.of(0));
    const changes: number[] = [];
    value.on('change', (bytes) => changes.push(bytes[0] as number));
    await value.start();
    expect(value.versionedValue.version).toBe(INT32_MAX - 1);

    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(1))).toBe(true);
    expect(value.versionedValue).toEqual({ value: Uint8Array.of(1), version: INT32_MAX });
    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(2))).toBe(true);
    expect(node.version).toBe(INT32_MIN);
    // Ordered by version, the wrapped value would look older than the one before it and be dropped.
    expect(value.versionedValue).toEqual({ value: Uint8Array.of(2), version: INT32_MIN });

    write(Uint8Array.of(3)); // another participant's write, seen through the watch
    await settle();
    expect(value.versionedValue).toEqual({ value: Uint8Array.of(3), version: INT32_MIN + 1 });
    expect(changes).toEqual([0, 1, 2, 3]); // the first read, then each new value once
    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(4))).toBe(true);
    expect(value.versionedValue.version).toBe(INT32_MIN + 2);
  });

  it('refuses a compare-and-set at version -1 (the server reads it as any version) without sending it', async () => {
    const { client, sent } = nodeAtVersion(-3);
    await using value = new SharedValue(client, '/v', Uint8Array.of(0));
    await value.start();
    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(1))).toBe(true);
    expect(value.versionedValue.version).toBe(-2);
    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(2))).toBe(true);
    expect(value.versionedValue.version).toBe(-1);
    const sentBefore = sent.length;
    await expect(value.trySetValue(value.versionedValue, Uint8Array.of(3))).rejects.toBeInstanceOf(
      InvalidRecipeArgumentError,
    );
    expect(sent.length).toBe(sentBefore);
    // A plain write moves the version on to 0, after which compare-and-set works again.
    await value.setValue(Uint8Array.of(4));
    expect(value.versionedValue.version).toBe(0);
    expect(await value.trySetValue(value.versionedValue, Uint8Array.of(5))).toBe(true);
  });

  it('SharedCount passes the wrapped version through to the server', async () => {
    const { client, sent } = nodeAtVersion(INT32_MAX);
    await using count = new SharedCount(client, '/v', 0);
    await count.start();
    expect(await count.trySetCount(count.versionedValue, 41)).toBe(true);
    expect(count.versionedValue).toEqual({ value: 41, version: INT32_MIN });
    expect(await count.trySetCount(count.versionedValue, 42)).toBe(true);
    expect(sent.filter((call) => call.op === 'setData').map((call) => call.version)).toEqual([
      INT32_MAX,
      INT32_MIN,
    ]);
    expect(count.count).toBe(42);
  });
});
