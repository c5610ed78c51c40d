import { describe, expect, it } from 'vitest';
import type { ConnectionState, HostAddress, WatchEvent } from '../util/types.js';
import { EnsembleTracker, type TrackedClient } from './ensemble-tracker.js';

/** A client stand-in: config reads answered by the test, state events sent by the test. */
function fakeClient(initial: HostAddress[]) {
  const reads: { watch: (event: WatchEvent) => void; answer: (data: string | Error) => void }[] = [];
  const listeners = new Set<(state: ConnectionState) => void>();
  const replaced: HostAddress[][] = [];
  let hosts = initial;
  const session = { id: 1n };
  const client: TrackedClient = {
    sessionId: () => session.id,
    readConfig: (watch) =>
      new Promise((resolve, reject) => {
        reads.push({
          watch,
          answer: (data) => (data instanceof Error ? reject(data) : resolve({ data: Buffer.from(data) })),
        });
      }),
    onState: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hosts: () => hosts,
    replaceHosts: (next) => {
      replaced.push(next);
      hosts = next;
    },
  };
  const state = (s: ConnectionState) => {
    for (const listener of listeners) listener(s);
  };
  return { client, reads, replaced, state, listeners, session };
}

const config = (version: string, ...ports: number[]) =>
  [
    ...ports.map((p, i) => `server.${i + 1}=10.0.0.${i + 1}:2888:3888:participant;127.0.0.1:${p}`),
    `version=${version}`,
  ].join('\n');
const at = (port: number) => ({ host: '127.0.0.1', port });
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('EnsembleTracker', () => {
  it('reads on (re)connection, applies a changed membership, and reads again when the watch fires', async () => {
    const fake = fakeClient([at(1)]);
    const tracker = new EnsembleTracker(fake.client);
    expect(fake.reads).toHaveLength(0);
    fake.state('connected');
    fake.reads[0]!.answer(config('100000000', 1, 2, 3));
    await tick();
    expect(fake.replaced).toEqual([[at(1), at(2), at(3)]]);
    expect(tracker.config?.version).toBe(0x100000000n);

    // The same membership (another read after a reconnect): nothing to replace.
    fake.state('reconnected');
    fake.reads[1]!.answer(config('100000000', 3, 2, 1));
    await tick();
    expect(fake.replaced).toHaveLength(1);

    fake.reads[1]!.watch({ type: 'dataChanged', path: '/zookeeper/config' });
    fake.reads[2]!.answer(config('100000005', 1, 2, 3, 4));
    await tick();
    expect(fake.replaced[1]).toEqual([at(1), at(2), at(3), at(4)]);
    // A removed watch (the user's removeWatches) does not read again.
    fake.reads[2]!.watch({ type: 'dataWatchRemoved', path: '/zookeeper/config' });
    expect(fake.reads).toHaveLength(3);
    tracker.close();
  });

  it('ignores malformed data, an empty membership, an older version, and a failed read', async () => {
    const fake = fakeClient([at(1)]);
    const tracker = new EnsembleTracker(fake.client);
    fake.state('connected');
    fake.reads[0]!.answer(config('100000005', 1, 2));
    await tick();
    for (const [i, data] of ['server.1=nonsense', 'version=100000006', config('100000001', 7, 8)].entries()) {
      fake.state(i % 2 === 0 ? 'reconnected' : 'connected');
      fake.reads[i + 1]!.answer(data);
      await tick();
    }
    fake.state('reconnected');
    fake.reads[4]!.answer(new Error('connection loss'));
    await tick();
    expect(fake.replaced).toEqual([[at(1), at(2)]]);
    expect(tracker.config?.version).toBe(0x100000005n);

    // A new session (an ensemble restored from a backup, with lower zxids) takes an older version.
    fake.session.id = 2n;
    fake.state('connected');
    fake.reads[5]!.answer(config('100000001', 7, 8));
    await tick();
    expect(fake.replaced[1]).toEqual([at(7), at(8)]);
    expect(tracker.config?.version).toBe(0x100000001n);
    tracker.close();
  });

  it('runs one read at a time (one more after it when asked meanwhile), and close stops it all', async () => {
    const fake = fakeClient([at(1)]);
    const tracker = new EnsembleTracker(fake.client);
    fake.state('connected');
    fake.state('reconnected');
    fake.state('read-only');
    expect(fake.reads).toHaveLength(1);
    fake.reads[0]!.answer(config('100000000', 1));
    await tick();
    expect(fake.reads).toHaveLength(2);
    tracker.close();
    expect(fake.listeners.size).toBe(0);
    fake.reads[1]!.answer(config('100000001', 1, 2));
    await tick();
    expect(fake.replaced).toEqual([]);
    fake.reads[1]!.watch({ type: 'dataChanged', path: '/zookeeper/config' });
    expect(fake.reads).toHaveLength(2);
  });
});
