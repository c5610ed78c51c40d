import { describe, expect, it } from 'vitest';
import { parseConnectString, shuffled } from './connect-string.js';
import { InvalidArgumentError } from './errors.js';

describe('connect strings', () => {
  it('parses hosts, default ports, IPv6 and a chroot', () => {
    const parsed = parseConnectString('h1:2181, h2 ,[::1]:2182,[fe80::1]/app/x');
    expect(parsed.hosts).toEqual([
      { host: 'h1', port: 2181 },
      { host: 'h2', port: 2181 },
      { host: '::1', port: 2182 },
      { host: 'fe80::1', port: 2181 },
    ]);
    expect(parsed.chroot.prefix).toBe('/app/x');
    expect(parseConnectString('h:1/').chroot.prefix).toBe('');
  });

  it.each(['', ',', 'h:port', 'h:70000', '::1:2181', '[::1', '[::1]x', 'h:1/bad/', ':2181'])(
    'refuses %j',
    (s) => {
      expect(() => parseConnectString(s)).toThrow(InvalidArgumentError);
    },
  );

  it('shuffles without losing or adding hosts', () => {
    const hosts = [1, 2, 3, 4, 5];
    let seed = 0.42;
    const random = () => (seed = (seed * 9301 + 0.49297) % 1);
    const out = shuffled(hosts, random);
    expect(out.slice().sort()).toEqual(hosts);
    expect(hosts).toEqual([1, 2, 3, 4, 5]);
  });
});
