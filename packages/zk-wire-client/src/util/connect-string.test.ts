import { describe, expect, it } from 'vitest';
import { parseClientConnectString, parseConnectString, parseDnsSrvConnectString } from './connect-string.js';
import { InvalidArgumentError } from './errors.js';
import { shuffled } from './shuffle.js';

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

  it("the client's own parse is remembered for the same string, and only for it", () => {
    const first = parseClientConnectString('a:1,b:2/app');
    expect(parseClientConnectString('a:1,b:2/app')).toBe(first);
    expect(first.hosts).toEqual([
      { host: 'a', port: 1 },
      { host: 'b', port: 2 },
    ]);
    expect(first.chroot.prefix).toBe('/app');
    // Shared between clients: the hosts cannot be changed through one of them.
    expect(Object.isFrozen(first.hosts[0])).toBe(true);
    const other = parseClientConnectString('c:3');
    expect(other).not.toBe(first);
    expect(other.hosts).toEqual([{ host: 'c', port: 3 }]);
    // A bad string is refused every time and does not replace the remembered one.
    expect(() => parseClientConnectString('h:70000')).toThrow(InvalidArgumentError);
    expect(() => parseClientConnectString('h:70000')).toThrow(InvalidArgumentError);
    expect(parseClientConnectString('c:3')).toBe(other);
  });

  it('shuffles without losing or adding hosts', () => {
    const hosts = [1, 2, 3, 4, 5];
    let seed = 0.42;
    const random = () => (seed = (seed * 9301 + 0.49297) % 1);
    const out = shuffled(hosts, random);
    expect(out.slice().sort()).toEqual(hosts);
    expect(hosts).toEqual([1, 2, 3, 4, 5]);
  });

  it('parses dns-srv://name[/chroot] (ZooKeeper 3.10), the name without a port', () => {
    expect(parseDnsSrvConnectString('dns-srv://_zookeeper._tcp.example.org')).toMatchObject({
      srvName: '_zookeeper._tcp.example.org',
      chroot: { prefix: '' },
    });
    expect(parseDnsSrvConnectString(' dns-srv://zk.example.org./app/x ')).toMatchObject({
      srvName: 'zk.example.org.',
      chroot: { prefix: '/app/x' },
    });
    expect(parseDnsSrvConnectString('dns-srv://zk.example.org/')?.chroot.prefix).toBe('');
    expect(parseDnsSrvConnectString('h1:2181/app')).toBeUndefined();
  });

  it.each([
    'dns-srv://',
    'dns-srv:///app',
    'dns-srv://zk.example.org:2181',
    'dns-srv://a.example.org,b.example.org',
    'dns-srv://bad name.org',
    'dns-srv://-bad.org',
    'dns-srv://a..b',
    'dns-srv://zk.example.org/bad/',
    `dns-srv://${'a'.repeat(64)}.org`,
  ])('refuses %j', (s) => {
    expect(() => parseDnsSrvConnectString(s)).toThrow(InvalidArgumentError);
  });

  it('a dns-srv:// string is no host list; the client parse gives its name and no hosts', () => {
    expect(() => parseConnectString('dns-srv://zk.example.org')).toThrow(/names no hosts/);
    const parsed = parseClientConnectString('dns-srv://_zookeeper._tcp.example.org/app');
    expect(parsed).toMatchObject({ hosts: [], srvName: '_zookeeper._tcp.example.org' });
    expect(parsed.chroot.prefix).toBe('/app');
    expect(parseClientConnectString('a:1').srvName).toBeUndefined();
  });
});
