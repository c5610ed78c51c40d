/**
 * `services` reads the curator-x-discovery layout: instances registered by @zkwire/discovery (whose bytes are
 * held equal to Curator 5.4's by that package's interop tests) from their own session, plus a corrupt node.
 */
import { createServiceInstance, ServiceDiscovery } from '@zkwire/discovery';
import { connect } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { useCliServer } from './helpers/cli-server.js';

const cli = useCliServer();

describe('services', () => {
  it('lists each service and its instances, decoded, with the owning session, and names a corrupt node', async () => {
    const zk = await connect({ connectString: cli.server.connectString });
    try {
      const discovery = new ServiceDiscovery(zk, { basePath: '/svc' });
      await discovery.start();
      await discovery.registerService(
        createServiceInstance({
          name: 'orders',
          id: 'o-1',
          address: '10.0.0.5',
          port: 8080,
          payload: { zone: 'eu-1' },
          uriSpec: '{scheme}://{address}:{port}',
        }),
      );
      await discovery.registerService(
        createServiceInstance({ name: 'billing', id: 'b-1', address: '10.0.0.6', port: 9090 }),
      );
      await cli.zk.create('/svc/billing/broken', 'not json');

      const { stdout, code } = await cli.run(['services', '/svc', '--json']);
      expect(code).toBe(0);
      const report = JSON.parse(stdout);
      expect(report.services.map((s: { name: string }) => s.name)).toEqual(['billing', 'orders']);
      const [billing, orders] = report.services;
      expect(orders.instances).toEqual([
        expect.objectContaining({
          id: 'o-1',
          address: '10.0.0.5',
          port: 8080,
          serviceType: 'DYNAMIC',
          enabled: true,
          session: `0x${zk.sessionId.toString(16)}`,
          uri: 'http://10.0.0.5:8080',
          payload: { zone: 'eu-1' },
        }),
      ]);
      expect(
        billing.instances.map((i: { id: string; corrupt?: string }) => [i.id, i.corrupt !== undefined]),
      ).toEqual([
        ['b-1', false],
        ['broken', true],
      ]);

      const one = await cli.run(['services', '/svc', 'orders']);
      expect(one.stdout).toMatch(
        /orders \(1\)\n {2}o-1 {2}10\.0\.0\.5:8080 {2}DYNAMIC {2}session 0x[0-9a-f]+ {2}http:\/\/10\.0\.0\.5:8080 {2}payload \{"zone":"eu-1"\}/,
      );
      const text = await cli.run(['services', '/svc', 'billing']);
      expect(text.stdout).toContain('not an instance');
      await discovery.close();
      expect(
        JSON.parse((await cli.run(['services', '/svc', 'orders', '--json'])).stdout).services[0].instances,
      ).toEqual([]);
    } finally {
      await zk.close();
    }
  });
});
