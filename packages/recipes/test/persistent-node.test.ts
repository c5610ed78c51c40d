/**
 * PersistentNode on a real server: Curator's names (protected `_c_<uuid>-`, sequence digits kept on
 * re-create), re-created after a deletion by another client and after a session expiry, the newest data wins,
 * close deletes the node and leaves no watch or listener, and bad arguments are refused before anything is sent.
 */
import { eventually, fourLetterWord } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import { isProtectedName, normalizeProtectedName } from '../src/internal-common/protected-name.js';
import { PersistentNode } from '../src/nodes/persistent-node.js';
import { childrenOf, deferred, type TestClient, useRealServer } from './helpers.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The data of `path` as text, or undefined when it does not exist. */
async function dataOf(client: TestClient, path: string): Promise<string | undefined> {
  try {
    return text((await client.getData(path)).data);
  } catch (error) {
    if ((error as { code?: string }).code === 'NONODE') return undefined;
    throw error;
  }
}

describe('PersistentNode (real server)', () => {
  const env = useRealServer({ clients: 2 });
  const extra: TestClient[] = [];
  afterAll(async () => {
    await Promise.all(extra.map((c) => c.close().catch(() => {})));
  });

  it('creates a protected ephemeral-sequential node named as Curator names it, once', async () => {
    const [owner, observer] = [env.client(0), env.client(1)];
    await using node = new PersistentNode(owner, '/pn/names/member-', {
      mode: 'ephemeral-sequential',
      data: 'hello',
      useProtection: true,
    });
    const created: string[] = [];
    node.on('created', (path) => created.push(path));
    node.start();
    expect(await node.waitForInitialCreate({ timeoutMs: 10_000 })).toBe(true);

    const children = await childrenOf(observer, '/pn/names');
    expect(children).toHaveLength(1);
    const name = children[0] as string;
    expect(name).toMatch(
      /^_c_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-member-\d{10}$/,
    );
    expect(isProtectedName(name)).toBe(true);
    expect(normalizeProtectedName(name)).toMatch(/^member-\d{10}$/);
    expect(node.actualPath).toBe(`/pn/names/${name}`);
    expect(created).toEqual([node.actualPath]);
    const stat = await observer.exists(node.actualPath as string);
    expect(stat?.ephemeralOwner).toBe(owner.sessionId);
    expect(await dataOf(observer, node.actualPath as string)).toBe('hello');
  });

  it('re-creates the node under the same name when another client deletes it, with the newest data', async () => {
    const [owner, other] = [env.client(0), env.client(1)];
    await using node = new PersistentNode(owner, '/pn/deleted/worker-', {
      mode: 'ephemeral-sequential',
      data: 'v1',
      useProtection: true,
    });
    const events: string[] = [];
    const recreated = deferred<string>();
    node.on('deleted', (path) => events.push(`deleted ${path}`));
    node.on('recreated', (path) => {
      events.push(`recreated ${path}`);
      recreated.resolve(path);
    });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const path = node.actualPath as string;
    expect(await node.setData('v2')).toBe(true);

    await other.delete(path);
    expect(await recreated.promise).toBe(path); // same name, sequence digits included
    expect(events).toEqual([`deleted ${path}`, `recreated ${path}`]);
    expect(await childrenOf(other, '/pn/deleted')).toEqual([path.slice('/pn/deleted/'.length)]);
    expect(await dataOf(other, path)).toBe('v2');
  });

  it('keeps a persistent node too, and its data: the last of several quick writes wins', async () => {
    const [owner, other] = [env.client(0), env.client(1)];
    await using node = new PersistentNode(owner, '/pn/persistent/config', { mode: 'persistent', data: 'a' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const writes = ['b', 'c', 'd', 'e'].map((value) => node.setData(value));
    expect(await Promise.all(writes)).toEqual([true, true, true, true]);
    expect(await dataOf(other, '/pn/persistent/config')).toBe('e');

    const recreated = deferred();
    node.once('recreated', () => recreated.resolve());
    await other.delete('/pn/persistent/config');
    await recreated.promise;
    expect(await dataOf(other, '/pn/persistent/config')).toBe('e');
    expect((await other.exists('/pn/persistent/config'))?.ephemeralOwner).toBe(0n);
  });

  it('adopts a node already at its path and writes its own data there', async () => {
    const [owner, other] = [env.client(0), env.client(1)];
    await other.create('/pn/adopt', 'old', { mode: 'persistent' });
    await using node = new PersistentNode(owner, '/pn/adopt', { mode: 'persistent', data: 'ours' });
    node.start();
    expect(await node.waitForInitialCreate({ timeoutMs: 10_000 })).toBe(true);
    expect(node.actualPath).toBe('/pn/adopt');
    expect(await dataOf(other, '/pn/adopt')).toBe('ours');
  });

  it('re-creates an ephemeral node, same name, on the new session after the old one expires', async () => {
    const owner = await connect({ connectString: env.server.connectString, autoRecreateSession: true });
    extra.push(owner);
    const observer = env.client(1);
    await using node = new PersistentNode(owner, '/pn/expiry/member-', {
      mode: 'ephemeral-sequential',
      data: 'alive',
      useProtection: true,
    });
    const events: string[] = [];
    node.on('deleted', () => events.push('deleted'));
    node.on('recreated', () => events.push('recreated'));
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const path = node.actualPath as string;
    const oldSession = owner.sessionId;

    // Expire the owner's session from outside: attach a second connection to it and close that one.
    const thief = await connect({
      connectString: env.server.connectString,
      session: { id: oldSession, password: owner.sessionPassword },
    });
    await thief.close();

    await eventually(async () => {
      const stat = await observer.exists(path);
      return stat !== null && stat.ephemeralOwner !== oldSession;
    });
    expect(owner.sessionId).not.toBe(oldSession);
    expect((await observer.exists(path))?.ephemeralOwner).toBe(owner.sessionId);
    expect(await childrenOf(observer, '/pn/expiry')).toHaveLength(1);
    expect(await dataOf(observer, path)).toBe('alive');
    await eventually(() => events.length === 2);
    expect(events).toEqual(['deleted', 'recreated']);
  });

  it('close deletes the node and leaves no watch and no state listener', async () => {
    const [owner, observer] = [env.client(0), env.client(1)];
    const listenersBefore = owner.listenerCount('state');
    const node = new PersistentNode(owner, '/pn/close/node', { mode: 'ephemeral', data: 'x' });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const watched = async () =>
      (await fourLetterWord(env.server.host, env.server.port, 'wchp')).includes('/pn/close/node');
    await eventually(watched); // the exists watch is armed
    expect(owner.listenerCount('state')).toBe(listenersBefore + 1);

    await node.close();
    expect(await observer.exists('/pn/close/node')).toBeNull();
    expect(await watched()).toBe(false);
    expect(owner.listenerCount('state')).toBe(listenersBefore);
    expect(node.actualPath).toBeUndefined();
    expect(await node.waitForInitialCreate()).toBe(true); // it was created before the close
  });

  it('close with keepOnClose leaves the node and removes the watch', async () => {
    const [owner, observer] = [env.client(0), env.client(1)];
    const node = new PersistentNode(owner, '/pn/keep/node', {
      mode: 'persistent',
      data: 'x',
      keepOnClose: true,
    });
    node.start();
    await node.waitForInitialCreate({ timeoutMs: 10_000 });
    const watched = async () =>
      (await fourLetterWord(env.server.host, env.server.port, 'wchp')).includes('/pn/keep/node');
    await eventually(watched);
    await node.close();
    expect(await observer.exists('/pn/keep/node')).not.toBeNull();
    expect(await watched()).toBe(false);
  });

  it('without parent creation, a missing parent is reported and nothing is created', async () => {
    const owner = env.client(0);
    await using node = new PersistentNode(owner, '/pn/no-parent/x/node', {
      mode: 'persistent',
      data: 'x',
      useParentCreation: false,
    });
    const failed = deferred<unknown>();
    node.on('error', (error) => failed.resolve(error));
    node.start();
    expect(await failed.promise).toMatchObject({ code: 'NONODE' });
    expect(await node.waitForInitialCreate({ timeoutMs: 0 })).toBe(false);
    expect(await owner.exists('/pn/no-parent')).toBeNull();
  });

  it('a TTL mode on a server without TTL nodes is reported as an error, not retried in a loop', async () => {
    await using node = new PersistentNode(env.client(0), '/pn/ttl-off', {
      mode: 'persistent-ttl',
      ttlMs: 1000,
      data: 'x',
    });
    const failed = deferred<unknown>();
    node.on('error', (error) => failed.resolve(error));
    node.start();
    expect(await failed.promise).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(await node.waitForInitialCreate({ timeoutMs: 0 })).toBe(false);
    expect(await env.client(1).exists('/pn/ttl-off')).toBeNull();
  });

  it('refuses bad arguments with typed errors before anything is sent', async () => {
    const real = env.client(0);
    const sent: string[] = [];
    const client = new Proxy(real, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (['create', 'setData', 'exists', 'getData', 'getChildren', 'delete'].includes(String(property))) {
          return (...args: unknown[]) => {
            sent.push(String(property));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    const invalid = { name: 'InvalidRecipeArgumentError', code: 'INVALID_ARGUMENT' };
    const make = (path: unknown, options: unknown) => () =>
      new PersistentNode(client, path as string, options as never);
    expect(make('relative', { mode: 'persistent', data: '' })).toThrow(expect.objectContaining(invalid));
    expect(make('/a/', { mode: 'persistent', data: '' })).toThrow(expect.objectContaining(invalid));
    expect(make('/a', { mode: 'sticky', data: '' })).toThrow(expect.objectContaining(invalid));
    expect(make('/a', { mode: 'persistent' })).toThrow(expect.objectContaining(invalid));
    expect(make('/a', { mode: 'persistent', data: 42 })).toThrow(expect.objectContaining(invalid));
    expect(make('/a', { mode: 'persistent-ttl', data: '' })).toThrow(expect.objectContaining(invalid));
    expect(make('/a', { mode: 'persistent-ttl', data: '', ttlMs: 0 })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(make('/a', { mode: 'ephemeral', data: '', ttlMs: 1000 })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(make('/a', { mode: 'ephemeral', data: '', useProtection: 'yes' })).toThrow(
      expect.objectContaining(invalid),
    );
    expect(make('/a', undefined)).toThrow(expect.objectContaining(invalid));

    const node = new PersistentNode(client, '/pn/bad-args', { mode: 'ephemeral', data: '' });
    expect(() => node.setData('x')).toThrow(expect.objectContaining({ code: 'ILLEGAL_STATE' }));
    await expect(node.waitForInitialCreate()).rejects.toMatchObject({ code: 'ILLEGAL_STATE' });
    await expect(node.waitForInitialCreate({ timeoutMs: -1 })).rejects.toMatchObject(invalid);
    expect(() => node.setData(7 as never)).toThrow(expect.objectContaining(invalid));
    expect(sent).toEqual([]);
    await node.close();
    expect(() => node.start()).toThrow(expect.objectContaining({ code: 'ILLEGAL_STATE' }));
    expect(sent).toEqual([]);
  });

  it('an aborted signal ends waitForInitialCreate with its reason', async () => {
    await using node = new PersistentNode(env.client(0), '/pn/abort', { mode: 'ephemeral', data: '' });
    node.start();
    const reason = new Error('stop');
    await expect(node.waitForInitialCreate({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
