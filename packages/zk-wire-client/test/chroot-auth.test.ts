import { beforeAll, describe, expect, it } from 'vitest';
import {
  AuthFailedError,
  acls,
  connect,
  digestId,
  NoAuthError,
  op,
  Perms,
  paths,
  type WatchEvent,
} from '../src/index.js';

import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

// A socket error or internal rejection that escapes the client fails the test that caused it.
failOnProcessErrors();

/** The server, its fault proxy, and `admin`: a client at the real root, outside every chroot. */
const fixture = useProxiedServer();
beforeAll(async () => {
  await fixture.admin.create('/app');
});

describe('chroot', () => {
  it('maps every path in and out of the chroot', async () => {
    await using zk = await connect({ connectString: `${fixture.server.connectString}/app` });
    expect(zk.chrootPrefix).toBe('/app');
    expect(await zk.create('/x', 'data')).toBe('/x');
    expect((await fixture.admin.getData('/app/x')).data.toString()).toBe('data');
    expect(await zk.create('/q-', null, { mode: 'persistent-sequential' })).toMatch(/^\/q-\d{10}$/);
    expect((await zk.getChildren('/')).sort()).toEqual(['q-0000000001', 'x']);
    const [created] = await zk.multi([op.create('/m', 'v')]);
    expect(created).toMatchObject({ type: 'create', path: '/m' });
    const eph = await zk.create('/e', null, { mode: 'ephemeral' });
    expect(await zk.getEphemerals()).toEqual([eph]);
    expect(paths.join('/', 'a', 'b/')).toBe('/a/b');
    expect(zk.toServerPath('/x')).toBe('/app/x');
    expect(zk.toClientPath('/app/x')).toBe('/x');
  });

  it('reports watch events with client paths, the chroot itself as "/"', async () => {
    await using zk = await connect({ connectString: `${fixture.server.connectString}/app` });
    const events: WatchEvent[] = [];
    await zk.getChildren('/', { watch: (e) => events.push(e) });
    await zk.exists('/w', { watch: (e) => events.push(e) });
    await fixture.admin.create('/app/w');
    await zk.sync('/');
    await new Promise((r) => setImmediate(r));
    expect(events.sort((a, b) => a.type.localeCompare(b.type))).toMatchObject([
      { type: 'childrenChanged', path: '/' },
      { type: 'created', path: '/w' },
    ]);
  });
});

describe('digest authentication', () => {
  it('computes the same digest id as the server', async () => {
    expect(digestId('bob', 'secret')).toBe('bob:fyVmFCwVbTJYrznoSu1koqYEYF0=');
    await using zk = await connect({ connectString: fixture.server.connectString });
    await zk.addAuth('digest', 'bob:secret');
    expect(await zk.whoAmI()).toContainEqual({ authScheme: 'digest', user: 'bob' });
    await zk.create('/bob-only', 'secret data', { acl: [acls.digest('bob', 'secret')] });
    expect((await zk.getACL('/bob-only')).acl).toEqual([
      { perms: Perms.ALL, id: { scheme: 'digest', id: 'bob:fyVmFCwVbTJYrznoSu1koqYEYF0=' } },
    ]);
    await expect(fixture.admin.getACL('/bob-only')).rejects.toBeInstanceOf(NoAuthError);
  });

  it('refuses a client without the right credentials', async () => {
    await using anonymous = await connect({ connectString: fixture.server.connectString });
    await expect(anonymous.getData('/bob-only')).rejects.toBeInstanceOf(NoAuthError);
    await using wrong = await connect({
      connectString: fixture.server.connectString,
      auth: [{ scheme: 'digest', credentials: 'bob:guess' }],
    });
    await expect(wrong.getData('/bob-only')).rejects.toMatchObject({
      code: 'NOAUTH',
      path: '/bob-only',
      operation: 'getData',
    });
    await using right = await connect({
      connectString: fixture.server.connectString,
      auth: [{ scheme: 'digest', credentials: 'bob:secret' }],
    });
    expect((await right.getData('/bob-only')).data.toString()).toBe('secret data');
  });

  it('creatorAll ACLs use the identities of the connection', async () => {
    await using zk = await connect({ connectString: fixture.server.connectString });
    await zk.addAuth('digest', 'carol:pw');
    await zk.create('/carol', 'c', { acl: acls.creatorAll() });
    expect((await zk.getACL('/carol')).acl).toEqual([
      { perms: Perms.ALL, id: { scheme: 'digest', id: digestId('carol', 'pw') } },
    ]);
    await expect(fixture.admin.getData('/carol')).rejects.toBeInstanceOf(NoAuthError);
  });

  it('re-sends saved credentials on every new connection', async () => {
    await using zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 10_000 });
    await zk.addAuth('digest', 'bob:secret');
    const reconnected = new Promise<void>((resolve) =>
      zk.once('state', () => zk.once('state', () => resolve())),
    );
    fixture.proxy.cut();
    await reconnected;
    expect((await zk.getData('/bob-only')).data.toString()).toBe('secret data');
  });

  it('an unknown scheme fails AuthFailed and the client recovers without it', async () => {
    await using zk = await connect({ connectString: fixture.server.connectString, sessionTimeoutMs: 10_000 });
    await expect(zk.addAuth('no-such-scheme', 'x')).rejects.toBeInstanceOf(AuthFailedError);
    await zk.connected();
    expect(await zk.exists('/app')).not.toBeNull();
  });
});
