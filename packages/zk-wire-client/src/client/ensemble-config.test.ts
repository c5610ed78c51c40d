import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../util/errors.js';
import { clientAddresses, configToConnectString, parseEnsembleConfig } from './ensemble-config.js';

describe('parseEnsembleConfig', () => {
  it('reads server lines (roles, client address or port alone, IPv6) and the hex version', () => {
    const config = parseEnsembleConfig(
      [
        'server.1=127.0.0.1:24646:23399:participant;127.0.0.1:25090',
        'server.2=10.0.0.2:2888:3888;2181',
        'server.3=[2001:db8::3]:2888:3888:observer;[2001:db8::3]:2182',
        'server.4=10.0.0.4:2888:3888:participant',
        'group.1=1:2:3',
        'version=10000000a',
        '',
      ].join('\n'),
    );
    expect(config.version).toBe(0x10000000an);
    expect(config.members).toEqual([
      {
        id: 1,
        host: '127.0.0.1',
        quorumPort: 24646,
        electionPort: 23399,
        role: 'participant',
        client: { host: '127.0.0.1', port: 25090 },
      },
      {
        id: 2,
        host: '10.0.0.2',
        quorumPort: 2888,
        electionPort: 3888,
        role: 'participant',
        client: { host: '0.0.0.0', port: 2181 },
      },
      {
        id: 3,
        host: '2001:db8::3',
        quorumPort: 2888,
        electionPort: 3888,
        role: 'observer',
        client: { host: '2001:db8::3', port: 2182 },
      },
      {
        id: 4,
        host: '10.0.0.4',
        quorumPort: 2888,
        electionPort: 3888,
        role: 'participant',
        client: undefined,
      },
    ]);
    // The wildcard client host stands for the member's own host; a member without a client port is left out.
    expect(clientAddresses(config)).toEqual([
      { host: '127.0.0.1', port: 25090 },
      { host: '10.0.0.2', port: 2181 },
      { host: '2001:db8::3', port: 2182 },
    ]);
    expect(configToConnectString(config)).toBe('127.0.0.1:25090,10.0.0.2:2181,[2001:db8::3]:2182');
  });

  it('refuses malformed lines with a ProtocolError naming the line', () => {
    for (const bad of [
      'server.1=host',
      'server.1=host:2888:3888:leader;2181',
      'server.1=host:2888:99999;2181',
      'server.1=host:2888:3888;a:b:c',
      'server.1=[::1:2888:3888;2181',
      'version=zz',
      'garbage',
    ]) {
      expect(() => parseEnsembleConfig(bad), bad).toThrow(ProtocolError);
    }
    expect(parseEnsembleConfig(Buffer.alloc(0))).toEqual({ version: undefined, members: [] });
  });
});
