import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  membershipOf,
  reconfigStaticConfig,
  SUPER_USER,
  serverLine,
  superDigestFlag,
} from './dynamic-config.js';

describe('dynamic config helpers', () => {
  it('writes server lines with the client address, and takes them back out of a `conf` answer', () => {
    const line = serverLine(4, { client: 2181, quorum: 2888, election: 3888 });
    expect(line).toBe('server.4=127.0.0.1:2888:3888:participant;127.0.0.1:2181');
    const conf = [
      'serverId=1',
      'peerType=0',
      'membership: ',
      line,
      'server.5=127.0.0.1:1:2:observer;127.0.0.1:3',
      'version=100000000',
    ];
    expect(membershipOf(conf.join('\n'))).toEqual([line, 'server.5=127.0.0.1:1:2:observer;127.0.0.1:3']);
    expect(membershipOf('This ZooKeeper instance is not currently serving requests')).toEqual([]);
  });

  it('moves the client port out of the static file and turns reconfig on', () => {
    const config = reconfigStaticConfig(
      { tickTime: 500, clientPort: 2181, clientPortAddress: '127.0.0.1', dataDir: '/d' },
      '/d/zoo.cfg.dynamic',
    );
    expect(config).toEqual({
      tickTime: 500,
      dataDir: '/d',
      reconfigEnabled: true,
      standaloneEnabled: false,
      dynamicConfigFile: '/d/zoo.cfg.dynamic',
    });
  });

  it("names the super user by the digest ZooKeeper's DigestAuthenticationProvider checks", () => {
    const digest = createHash('sha1').update(SUPER_USER.credentials).digest('base64');
    expect(superDigestFlag()).toBe(`-Dzookeeper.DigestAuthenticationProvider.superDigest=super:${digest}`);
  });
});
