/**
 * ServiceDiscovery takes a chroot view (`client.chroot(root)`) where it takes a client, on a real server: the
 * instance nodes land under the view's root, and queries through the view find them.
 */
import { describe, expect, it } from 'vitest';
import { ServiceDiscovery } from '../src/service-discovery.js';
import { discoveryServer, instance } from './discovery-fixture.js';

describe('service discovery on a chroot view', () => {
  const env = discoveryServer();

  it('registers under the view root and finds the instance through the view', async () => {
    const zk = await env.client();
    await zk.create('/tenant-discovery', null);
    await using view = zk.chroot('/tenant-discovery');
    const discovery = new ServiceDiscovery(view, { basePath: '/services' });
    await discovery.start();
    await discovery.registerService(instance('billing', 'b1'));
    expect(await zk.getChildren('/tenant-discovery/services/billing')).toEqual(['b1']);
    expect((await discovery.queryForInstances('billing')).map((found) => found.id)).toEqual(['b1']);
    await discovery.close();
  });
});
