/**
 * Errors that say why (issue 45): a connect that gives up names the servers it tried and why each failed,
 * `failFast` gives up once every server failed, a missing chroot is named, `ensureChroot` creates it, and a
 * SessionExpiredError names its call in every wave.
 */
import { freePort, startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConnectionLossError,
  connect,
  createClient,
  InvalidArgumentError,
  NoNodeError,
  OperationTimeoutError,
  SessionExpiredError,
  type ZooKeeperClient,
} from '../src/index.js';

let server: ZooKeeperServer;
let admin: ZooKeeperClient;
/** A port nothing listens on: connecting is refused at once. */
let refused: string;
const UNKNOWN_HOST = 'no-such-host.invalid:2181';
// Without a resolver at hand getaddrinfo answers EAI_AGAIN instead of ENOTFOUND; both say the name failed.
const NAME_FAILED = /getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid/;

beforeAll(async () => {
  server = await startZooKeeper();
  admin = await connect({ connectString: server.connectString });
  refused = `127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await admin?.close();
  await server?.[Symbol.asyncDispose]();
});

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Error,
  );
}

describe('a connect that gives up says why', () => {
  it('names a refused server and ECONNREFUSED in the message, the socket error as the cause', async () => {
    const error = await rejection(connect({ connectString: refused, connectWaitMs: 1500 }));
    expect(error).toBeInstanceOf(OperationTimeoutError);
    expect(error.message).toContain(`tried ${refused} (connect ECONNREFUSED ${refused})`);
    expect(error.cause).toBeInstanceOf(ConnectionLossError);
    expect((error.cause as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('names an unknown host and the failed name lookup', async () => {
    const error = await rejection(connect({ connectString: UNKNOWN_HOST, connectWaitMs: 1500 }));
    expect(error).toBeInstanceOf(OperationTimeoutError);
    expect(error.message).toContain(`tried ${UNKNOWN_HOST} (`);
    expect(error.message).toMatch(NAME_FAILED);
  });

  it('connected() of a client says the same', async () => {
    const zk = createClient({ connectString: `${refused},${UNKNOWN_HOST}` });
    try {
      const error = await rejection(zk.connected({ timeoutMs: 1500 }));
      expect(error.message).toContain(`${refused} (connect ECONNREFUSED ${refused})`);
      expect(error.message).toMatch(NAME_FAILED);
    } finally {
      await zk.close();
    }
  });
});

describe('failFast', () => {
  it('gives up once every server failed, long before connectWaitMs, and the client is closed', async () => {
    const options = { connectString: `${refused},${UNKNOWN_HOST}`, failFast: true, connectWaitMs: 60_000 };
    const error = await rejection(connect(options));
    // Not the wait's timeout: the round of failures ended it.
    expect(error).toBeInstanceOf(ConnectionLossError);
    expect(error.message).toContain('no server could be reached (failFast)');
    expect(error.message).toContain(`${refused} (connect ECONNREFUSED ${refused})`);
    expect(error.message).toMatch(NAME_FAILED);

    const zk = createClient(options);
    const call = zk.getData('/x');
    await expect(zk.connected()).rejects.toBeInstanceOf(ConnectionLossError);
    await expect(call).rejects.toBeInstanceOf(ConnectionLossError);
    expect(zk.state).toBe('closed');
    await zk.close();
  });

  it('connects when one server of the list answers', async () => {
    const zk = await connect({ connectString: `${refused},${server.connectString}`, failFast: true });
    expect(zk.state).toBe('connected');
    await zk.close();
  });

  it('is a boolean', () => {
    expect(() => createClient({ connectString: refused, failFast: 'yes' as never })).toThrow(
      InvalidArgumentError,
    );
  });
});

describe('a missing chroot is named', () => {
  let zk: ZooKeeperClient;
  beforeAll(async () => {
    zk = await connect({ connectString: `${server.connectString}/missing-app` });
  });
  afterAll(() => zk?.close());

  it('on the chroot root', async () => {
    const error = await rejection(zk.getChildren('/'));
    expect(error).toBeInstanceOf(NoNodeError);
    expect(error.message).toBe(
      'No node (getChildren /): the chroot /missing-app does not exist (create it, or connect with ensureChroot: true)',
    );
  });

  it('on a create directly under it, and so in ensurePath', async () => {
    expect((await rejection(zk.create('/a'))).message).toContain('the chroot /missing-app does not exist');
    const walked = await rejection(zk.ensurePath('/a/b'));
    expect(walked).toBeInstanceOf(NoNodeError);
    expect(walked.message).toContain('the chroot /missing-app does not exist');
  });

  it('and not where a missing node says nothing of it', async () => {
    const error = await rejection(zk.getData('/x'));
    expect(error).toBeInstanceOf(NoNodeError);
    expect(error.message).toBe('No node (getData /x)');
  });
});

describe('ensureChroot', () => {
  it('creates the chroot and its parents before the calls queued before the connection', async () => {
    const zk = createClient({ connectString: `${server.connectString}/made/app`, ensureChroot: true });
    try {
      // Queued before the first connection: the chroot's creates go out ahead of it.
      const created = zk.create('/x', 'v');
      await expect(created).resolves.toBe('/x');
      expect((await admin.getData('/made/app/x')).data.toString()).toBe('v');
    } finally {
      await zk.close();
    }
  });

  it('leaves an existing chroot as it is', async () => {
    await admin.ensurePath('/there');
    await admin.create('/there/child');
    const zk = await connect({ connectString: `${server.connectString}/there`, ensureChroot: true });
    expect(await zk.getChildren('/')).toEqual(['child']);
    await zk.close();
  });
});

describe('SessionExpiredError names its call in every wave', () => {
  it('calls queued while suspended, and calls made after the expiry', async () => {
    const zk = await connect({ connectString: server.connectString, sessionTimeoutMs: 4000 });
    const lost = new Promise<void>((resolve) => zk.on('state', (s) => s === 'lost' && resolve()));
    const suspended = new Promise<void>((resolve) => zk.on('state', (s) => s === 'suspended' && resolve()));
    // Another handle on the same session closes it: the server ends this client's connection, and the
    // reconnect learns the session is gone.
    const thief = await connect({
      connectString: server.connectString,
      session: { id: zk.sessionId, password: zk.sessionPassword },
    });
    await thief.close();
    await suspended;
    const queued = zk.getData('/queued');
    await lost;
    await expect(queued).rejects.toMatchObject({ operation: 'getData', path: '/queued' });
    const after = await rejection(zk.setData('/after', 'x'));
    expect(after).toBeInstanceOf(SessionExpiredError);
    expect(after).toMatchObject({ operation: 'setData', path: '/after' });
    expect(after.message).toBe('Session expired (setData /after)');
    await zk.close();
  });
});
