/**
 * addAuth always settles: a credential waiting for its answer (sent, or parked until the next connection)
 * rejects with ClientClosed on close, SessionExpired on expiry and ConnectionLoss when its connection drops,
 * and `timeoutMs` / `signal` bound the wait. Against a real server behind the fault proxy.
 */
import { nextState } from '@zkwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  ConnectionLossError,
  connect,
  createClient,
  OperationTimeoutError,
  SessionExpiredError,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors, useProxiedServer } from './faults-helpers.js';

failOnProcessErrors();

/** The digest users the server knows this connection by. */
async function digestUsers(zk: ZooKeeperClient): Promise<string[]> {
  return (await zk.whoAmI()).filter((c) => c.authScheme === 'digest').map((c) => c.user.split(':')[0]!);
}

const fixture = useProxiedServer({ tickTime: 500, config: { minSessionTimeout: 1000 } });
afterEach(() => fixture.proxy.resume());

describe('addAuth settles', () => {
  it('rejects a credential parked before the first connection when the client closes', async () => {
    fixture.proxy.pause();
    const zk = createClient({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 2000 });
    const pending = zk.addAuth('digest', 'u:p');
    await zk.close();
    await expect(pending).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('rejects a sent credential when the client closes and no answer comes', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 2000 });
    fixture.proxy.pause();
    const pending = zk.addAuth('digest', 'u:p');
    const closed = zk.close();
    // close() waits for closeSession's answer; the silent connection reaches its read timeout first.
    await expect(pending).rejects.toBeInstanceOf(ConnectionLossError);
    await closed;
    await expect(zk.addAuth('digest', 'u:p')).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('rejects a sent credential with ConnectionLoss when its connection is cut', async () => {
    await using zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    fixture.proxy.pause();
    const pending = zk.addAuth('digest', 'u:p');
    fixture.proxy.cut();
    await expect(pending).rejects.toBeInstanceOf(ConnectionLossError);
    fixture.proxy.resume();
    await zk.connected();
    // The credential stayed saved and is sent again on the new connection.
    expect(await digestUsers(zk)).toEqual(['u']);
  });

  it('rejects a parked credential with SessionExpired when the session expires', async () => {
    const zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 1000 });
    const suspended = nextState(zk, 'suspended');
    fixture.proxy.pause();
    await suspended;
    const pending = zk.addAuth('digest', 'u:p');
    await expect(pending).rejects.toBeInstanceOf(SessionExpiredError);
    await zk.close();
  });

  it('honours timeoutMs and signal; the credential stays saved', async () => {
    await using zk = await connect({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 4000 });
    fixture.proxy.pause();
    await expect(zk.addAuth('digest', 'u:p', { timeoutMs: 100 })).rejects.toBeInstanceOf(
      OperationTimeoutError,
    );
    const controller = new AbortController();
    const aborted = zk.addAuth('digest', 'v:q', { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(aborted).rejects.toThrow('caller gave up');
    fixture.proxy.resume();
    await zk.sync('/');
    expect((await digestUsers(zk)).sort()).toEqual(['u', 'v']);
  });
});

describe('connected() timing out', () => {
  it('carries the last connection error as its cause', async () => {
    fixture.proxy.refuse(true);
    try {
      const zk = createClient({ connectString: fixture.proxy.connectString, sessionTimeoutMs: 2000 });
      const error = await zk.connected({ timeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OperationTimeoutError);
      expect((error as Error).cause).toBeInstanceOf(ConnectionLossError);
      await zk.close();
    } finally {
      fixture.proxy.refuse(false);
    }
  });
});
