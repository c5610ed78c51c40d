import { describe, expect, it } from 'vitest';
import { clientAddresses } from './read-commands.js';

describe('config -c', () => {
  it("takes each server's client address from a dynamic config (a wildcard host becomes the server's)", () => {
    const config = [
      'server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181',
      'server.2=10.0.0.2:2888:3888:participant;10.0.0.2:2182',
      'server.3=10.0.0.3:2888:3888:observer;2183',
      'version=100000000',
    ].join('\n');
    expect(clientAddresses(config)).toEqual(['10.0.0.1:2181', '10.0.0.2:2182', '10.0.0.3:2183']);
    expect(clientAddresses('')).toEqual([]);
  });
});
