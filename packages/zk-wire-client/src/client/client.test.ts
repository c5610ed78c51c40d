import { describe, expect, it } from 'vitest';
import { ClientClosedError, connect, createClient, InvalidArgumentError } from '../index.js';

// Port 1 on loopback refuses connections: the client keeps trying, which is what these tests need.
const nowhere = '127.0.0.1:1';

describe('client without a server', () => {
  it('refuses bad options at once, naming them', async () => {
    expect(() => createClient({ connectString: '' })).toThrow(InvalidArgumentError);
    expect(() => createClient({ connectString: nowhere, sessionTimeoutMs: -5 })).toThrow(/sessionTimeoutMs/);
    expect(() =>
      createClient({ connectString: nowhere, session: { id: 1n, password: new Uint8Array(3) } }),
    ).toThrow(/session.password/);
    await expect(connect({ connectString: 'h:99999' })).rejects.toMatchObject({ argument: 'connectString' });
  });

  it('connected() honours its signal and timeout; states() ends on abort and on close', async () => {
    const zk = createClient({ connectString: nowhere });
    const controller = new AbortController();
    const waiting = zk.connected({ signal: controller.signal });
    controller.abort(new Error('enough'));
    await expect(waiting).rejects.toThrow('enough');
    await expect(zk.connected({ timeoutMs: 50 })).rejects.toMatchObject({ code: 'OPERATIONTIMEOUT' });

    const stateController = new AbortController();
    const seen: string[] = [];
    const loop = (async () => {
      for await (const state of zk.states({ signal: stateController.signal })) seen.push(state);
    })();
    stateController.abort();
    await loop;
    const afterClose = (async () => {
      for await (const state of zk.states()) seen.push(state);
    })();
    await zk.close();
    await afterClose;
    expect(seen).toEqual([]);
    expect(zk.state).toBe('closed');
    await expect(zk.getData('/')).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('refuses bad call arguments with a rejected promise, never a throw', async () => {
    const zk = createClient({ connectString: nowhere });
    const calls = [
      () => zk.getData('x'),
      () => zk.exists('/a', { watch: 42 as never }),
      () => zk.create('/a', 5 as never),
      () => zk.delete('/a', { version: 1.5 }),
      () => zk.setACL('/a', []),
      () => zk.multi('x' as never),
      () => zk.multi([{ type: 'nope' } as never]),
      () => zk.multiRead([{ type: 'setData', path: '/a' } as never]),
      () => zk.addWatch('/a', 'sometimes' as never, () => {}),
      () => zk.removeWatches('/a', 'sometimes' as never),
      () => zk.removeWatches('/a', 'data', { watcher: 'w' as never }),
      () => zk.checkWatches('/a', 'everything' as never),
      () => zk.addAuth('', 'x'),
      () => zk.getEphemerals('no-slash'),
      () => zk.reconfig({ fromConfig: 1 as never }),
    ];
    for (const call of calls) {
      let result: Promise<unknown> | undefined;
      expect(() => {
        result = call();
      }).not.toThrow();
      await expect(result).rejects.toMatchObject({ errno: expect.any(Number) });
    }
    await zk.close();
  });

  it('refuses an options argument that is not an object before anything is sent', async () => {
    const zk = createClient({ connectString: nowhere });
    const calls = [
      // A positional version (plain JavaScript) would otherwise be dropped: an unconditional write.
      () => zk.setData('/a', 'x', 3 as never),
      () => zk.delete('/a', 2 as never),
      () => zk.getData('/a', 'watch' as never),
      () => zk.create('/a', null, 'ephemeral' as never),
      () => zk.multi([], 1 as never),
      () => zk.addWatch('/a', 'persistent', () => {}, 5 as never),
      () => zk.removeWatches('/a', 'data', null as never),
      () => zk.checkWatches('/a', 'data', 7 as never),
      () => zk.getEphemerals('/', 1 as never),
      () => zk.ensurePath('/a/b', 'persistent', 3 as never),
      () => zk.deleteRecursive('/a', 3 as never),
      () => zk.connected(3 as never),
      () => zk.addAuth('digest', 'a:b', 3 as never),
    ];
    for (const call of calls) {
      let result: Promise<unknown> | undefined;
      expect(() => {
        result = call();
      }).not.toThrow();
      await expect(result).rejects.toMatchObject({ code: 'BADARGUMENTS', argument: 'options' });
    }
    const iterator = zk.watchPersistent('/a', 4 as never)[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ argument: 'options' });
    await zk.close();
  });
});
