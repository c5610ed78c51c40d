/** The Curator driver harness itself, against a real server, with Java on both sides. */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JavaDriver, startJavaDriver } from './java-driver.js';

describe('Java driver harness (Curator)', () => {
  let server: ZooKeeperServer;
  let driver: JavaDriver;

  beforeAll(async () => {
    server = await startZooKeeper();
    driver = await startJavaDriver({ connectString: server.connectString, handlers: ['LockHandler.java'] });
  });

  afterAll(async () => {
    await driver?.close();
    await server?.stop();
  });

  it('runs two Java actors contending for one mutex, with Curator node names', async () => {
    expect(await driver.call('a', 'mutex.acquire', '/harness/mutex', -1)).toBe('true');
    expect(await driver.call('b', 'mutex.acquire', '/harness/mutex', 200)).toBe('false');
    const children = (await driver.call('a', 'children', '/harness/mutex')).split(',');
    expect(children).toHaveLength(1);
    expect(children[0]).toMatch(/^_c_[0-9a-f-]{36}-lock-\d{10}$/);
    await driver.call('a', 'mutex.release', '/harness/mutex');
    expect(await driver.call('b', 'mutex.acquire', '/harness/mutex', 5_000)).toBe('true');
    await driver.call('b', 'mutex.release', '/harness/mutex');
  });

  it('reports Java exceptions as rejections and refuses words with spaces', async () => {
    await expect(driver.call('a', 'mutex.release', '/harness/never-acquired')).rejects.toThrow(/Java: /);
    await expect(driver.call('a', 'no.such.op')).rejects.toThrow(/unknown op/);
    await expect(driver.call('a', 'children', 'has space')).rejects.toThrow(TypeError);
  });

  it('refuses handler paths that cannot name a Java class, before compiling anything', async () => {
    const connectString = server.connectString;
    await expect(startJavaDriver({ connectString, handlers: [] })).rejects.toThrow(/at least one handler/);
    await expect(startJavaDriver({ connectString, handlers: ['lock-handler.txt'] })).rejects.toThrow(
      /not a \.java file named after its class/,
    );
    await expect(
      startJavaDriver({ connectString, handlers: ['LockHandler.java', 'other/LockHandler.java'] }),
    ).rejects.toThrow(/two sources are named LockHandler\.java/);
  });
});
