import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseMntr,
  startEnsemble,
  startZooKeeper,
  type ZooKeeperServer,
  ZooKeeperStartError,
} from '../src/index.js';
import { RawSession } from './raw-client.js';

describe('startZooKeeper', () => {
  let zk: ZooKeeperServer;

  beforeAll(async () => {
    zk = await startZooKeeper({ config: { maxSessionTimeout: 30_000 } });
  });
  afterAll(async () => {
    await zk?.[Symbol.asyncDispose]();
  });

  it('serves on loopback in standalone mode', async () => {
    expect(zk.host).toBe('127.0.0.1');
    expect(zk.connectString).toBe(`127.0.0.1:${zk.port}`);
    expect(zk.pid).toBeTypeOf('number');
    expect(await zk.fourLetterWord('ruok')).toBe('imok');
    expect(await zk.mode()).toBe('standalone');
    expect(zk.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await zk.fourLetterWord('srvr')).toMatch(
      new RegExp(`^Zookeeper version: ${zk.version.replaceAll('.', '\\.')}`),
    );
  });

  it('writes the extra zoo.cfg keys', async () => {
    const conf = await zk.fourLetterWord('conf');
    expect(conf).toMatch(/maxSessionTimeout=30000/);
  });

  it('keeps its data and port across restart, stop/start and kill/start', async () => {
    const session = await RawSession.open(zk.host, zk.port);
    expect(await session.create('/kept', Buffer.from('before restart'))).toBe(0);
    session.close();
    const port = zk.port;

    await zk.restart();
    expect(zk.port).toBe(port);
    await zk.stop();
    expect(zk.pid).toBeUndefined();
    expect(await zk.mode()).toBeUndefined();
    await zk.start();
    await zk.kill();
    expect(zk.running).toBe(false);
    await zk.start();

    const after = await RawSession.open(zk.host, zk.port);
    expect((await after.getData('/kept'))?.toString()).toBe('before restart');
    after.close();
    expect(parseMntr(await zk.fourLetterWord('mntr')).get('zk_server_state')).toBe('standalone');
  });
});

describe('startZooKeeper options', () => {
  it('passes JVM flags and removes its temp dir on dispose', async () => {
    let dir: string;
    {
      await using zk = await startZooKeeper({
        jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true'],
        tickTime: 500,
      });
      dir = zk.dir;
      expect(existsSync(zk.dataDir)).toBe(true);
      // With a tickTime of 500 ms the minimum session timeout is 1000 ms.
      expect(await zk.fourLetterWord('conf')).toMatch(/minSessionTimeout=1000/);
      // TTL nodes need extendedTypesEnabled: a CreateTTL request must succeed.
      const session = await RawSession.open(zk.host, zk.port);
      expect(await session.createTtl('/ttl', 60_000)).toBe(0);
      session.close();
    }
    expect(existsSync(dir)).toBe(false);
  });
});

describe('start failures', () => {
  it('rejects with the server log when the JVM exits during start', async () => {
    const failed = startZooKeeper({ config: { tickTime: 'not-a-number' } });
    await expect(failed).rejects.toThrow(ZooKeeperStartError);
    await expect(failed).rejects.toThrow(/exited while starting[\s\S]*not-a-number/);
  });

  it('refuses an ensemble size that cannot form a quorum config, before starting anything', async () => {
    await expect(startEnsemble({ size: 0 })).rejects.toThrow(RangeError);
    await expect(startEnsemble({ size: 2.5 })).rejects.toThrow(RangeError);
  });
});
