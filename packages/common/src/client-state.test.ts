import { EventEmitter } from 'node:events';
import type { ClientApi, ConnectionState } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { onClientState } from './client-state.js';

describe('onClientState', () => {
  it('hears the state events until it unsubscribes', () => {
    const client = new EventEmitter() as unknown as Pick<ClientApi, 'on' | 'off'>;
    const seen: ConnectionState[] = [];
    const unsubscribe = onClientState(client, (state) => seen.push(state));
    (client as unknown as EventEmitter).emit('state', 'suspended');
    unsubscribe();
    (client as unknown as EventEmitter).emit('state', 'lost');
    expect(seen).toEqual(['suspended']);
    expect((client as unknown as EventEmitter).listenerCount('state')).toBe(0);
  });
});
