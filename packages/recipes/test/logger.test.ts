/**
 * Background errors a recipe meets go to its 'error' listeners, or, with nobody listening, to the client's
 * `logger` (warn) instead of vanishing. Real server.
 */

import { eventually, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { connect } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersistentNode } from '../src/index.js';

let server: ZooKeeperServer;
beforeAll(async () => {
  server = await startZooKeeper();
});
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

describe('recipes and the client logger', () => {
  it('logs an error nobody listens for, and does not log one that is heard', async () => {
    const lines: string[] = [];
    const logger = { warn: (m: string) => lines.push(m) };
    const zk = await connect({ connectString: server.connectString, logger });
    try {
      const unheard = new PersistentNode(zk, '/no-parent/x/node', {
        mode: 'persistent',
        data: 'x',
        useParentCreation: false,
      });
      unheard.start();
      await eventually(() => lines.length > 0);
      expect(lines).toEqual([
        expect.stringMatching(/^zookeeper recipes: PersistentNode \/no-parent\/x\/node: .*: NONODE: /),
      ]);
      await unheard.close();

      const heard = new PersistentNode(zk, '/no-parent/y/node', {
        mode: 'persistent',
        data: 'x',
        useParentCreation: false,
      });
      const errors: unknown[] = [];
      heard.on('error', (error) => errors.push(error));
      heard.start();
      await eventually(() => errors.length > 0);
      expect(lines).toHaveLength(1);
      await heard.close();
    } finally {
      await zk.close();
    }
  });
});
