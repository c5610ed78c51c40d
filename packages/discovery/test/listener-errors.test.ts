/**
 * A listener of the application that throws changes nothing in a cache or provider (the other listeners
 * run, the cache stays current): it is reported as 'error', or, with nobody listening, as a process warning
 * ZKWIRE_LISTENER_ERROR. A corrupt instance node nobody hears about is one warning ZKWIRE_BACKGROUND_ERROR,
 * not silence. Real server.
 */
import { eventually, recordWarnings } from '@zkwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceDiscovery } from '../src/service-discovery.js';
import type { ServiceInstance } from '../src/service-instance.js';
import { BASE, discoveryServer, instance, registeringWriter } from './discovery-fixture.js';

const warnings = recordWarnings();
afterEach(warnings.clear);

const ids = (instances: readonly ServiceInstance[]) => instances.map((instance) => instance.id);

describe('errors from listeners and background work (real server)', () => {
  const env = discoveryServer();

  it('a ServiceCache changed listener that throws: reported as error, the cache and its other listeners go on', async () => {
    const writer = await registeringWriter(await env.client(), 'heard', ['a']);
    const discovery = new ServiceDiscovery(await env.client(), { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('heard');
    const errors: unknown[] = [];
    const changes: string[][] = [];
    cache.on('error', (error) => errors.push(error));
    cache.on('changed', () => {
      throw new Error('changed listener bug');
    });
    cache.on('changed', (instances) => changes.push(ids(instances)));
    try {
      await cache.start();
      await writer.registerService(instance('heard', 'b'));
      await eventually(() => changes.length === 1);
      await writer.unregisterService('a');
      await eventually(() => changes.length === 2);
      expect(changes).toEqual([['a', 'b'], ['b']]);
      expect(ids(cache.instances())).toEqual(['b']);
      expect(errors).toEqual([new Error('changed listener bug'), new Error('changed listener bug')]);
    } finally {
      await discovery.close();
      await writer.close();
    }
  });

  it('a ServiceProvider whose closed listener throws still closes; unheard, it is a ZKWIRE_LISTENER_ERROR warning', async () => {
    const discovery = new ServiceDiscovery(await env.client(), { basePath: BASE });
    await discovery.start();
    const provider = discovery.serviceProvider({ serviceName: 'provided' });
    provider.on('closed', () => {
      throw new Error('closed listener bug');
    });
    try {
      await provider.start();
      await expect(provider.close()).resolves.toBeUndefined();
      await warnings.delivered();
      const reported = warnings.withCode('ZKWIRE_LISTENER_ERROR');
      expect(reported.map((warning) => warning.message)).toEqual([
        `ServiceProvider ${BASE}/provided: 'closed' listener threw: closed listener bug`,
      ]);
    } finally {
      await discovery.close();
    }
  });

  it('a corrupt instance node with nobody listening: one ZKWIRE_BACKGROUND_ERROR warning per cause', async () => {
    const writerClient = await env.client();
    const writer = await registeringWriter(writerClient, 'corrupt', ['a']);
    await writerClient.create(`${BASE}/corrupt/x-corrupt`, '[]', { mode: 'ephemeral' });
    await writerClient.create(`${BASE}/corrupt/y-corrupt`, '{', { mode: 'ephemeral' });
    const discovery = new ServiceDiscovery(await env.client(), { basePath: BASE });
    await discovery.start();
    const cache = discovery.serviceCache('corrupt');
    try {
      await cache.start();
      expect(ids(cache.instances())).toEqual(['a']);
      await warnings.delivered();
      const reported = warnings
        .withCode('ZKWIRE_BACKGROUND_ERROR')
        .filter((warning) => warning.message.startsWith(`ServiceCache ${BASE}/corrupt:`));
      expect(reported).toHaveLength(1);
      expect(reported[0]?.message).toMatch(/a corrupt instance node was left out: .*corrupt/);
    } finally {
      await discovery.close();
      await writer.close();
    }
  });
});
