import { describe, expect, it } from 'vitest';
import type { TestCertificates } from './certificates.js';
import { jaasClientConfig, jaasServerConfig } from './jaas.js';
import { type SecureLayout, secureJvmFlags, secureZooCfg } from './secure-config.js';

const certificates = {
  password: 'pw',
  server: { p12File: '/c/server.p12' },
  truststoreP12File: '/c/truststore.p12',
} as unknown as TestCertificates;
const layout: SecureLayout = {
  dir: '/d',
  dataDir: '/d/data',
  host: '127.0.0.1',
  port: 21000,
  securePort: 21001,
  certificates,
  jaasFile: undefined,
};

function lines(cfg: string): Map<string, string> {
  return new Map(
    cfg
      .trim()
      .split('\n')
      .map((line) => line.split('=', 2) as [string, string]),
  );
}

describe('secureZooCfg', () => {
  it('configures Netty, the TLS port and its stores, clientAuth need by default', () => {
    const cfg = lines(secureZooCfg({}, layout));
    expect(cfg.get('serverCnxnFactory')).toBe('org.apache.zookeeper.server.NettyServerCnxnFactory');
    expect(cfg.get('secureClientPort')).toBe('21001');
    expect(cfg.get('ssl.keyStore.location')).toBe('/c/server.p12');
    expect(cfg.get('ssl.trustStore.location')).toBe('/c/truststore.p12');
    expect(cfg.get('ssl.clientAuth')).toBe('need');
    expect(cfg.has('ssl.protocol')).toBe(false);
    expect(cfg.has('authProvider.sasl')).toBe(false);
  });

  it('adds TLS 1.3 with its cipher suites, the sasl provider, and user lines last', () => {
    const cfg = lines(
      secureZooCfg(
        { tls13: true, clientAuth: 'want', saslUsers: { bob: 'x' }, config: { tickTime: 500 } },
        layout,
      ),
    );
    expect(cfg.get('ssl.enabledProtocols')).toBe('TLSv1.3,TLSv1.2');
    expect(cfg.get('ssl.ciphersuites')).toContain('TLS_AES_128_GCM_SHA256');
    expect(cfg.get('ssl.clientAuth')).toBe('want');
    expect(cfg.get('authProvider.sasl')).toBe('org.apache.zookeeper.server.auth.SASLAuthenticationProvider');
    expect(cfg.get('tickTime')).toBe('500');
  });

  it('has no TLS lines without certificates', () => {
    const cfg = lines(
      secureZooCfg({ tls: false }, { ...layout, certificates: undefined, securePort: undefined }),
    );
    expect([...cfg.keys()].filter((key) => key.startsWith('ssl.') || key.startsWith('secure'))).toEqual([]);
  });
});

describe('secureJvmFlags', () => {
  it('passes JAAS and the super digest as JVM properties, user flags last', () => {
    const flags = secureJvmFlags(
      { superDigest: 'super:abc', jvmFlags: ['-Dx=1'] },
      { ...layout, jaasFile: '/d/j.conf' },
    );
    expect(flags).toEqual([
      '-Xmx128m',
      '-XX:+UseSerialGC',
      '-Dzookeeper.jmx.log4j.disable=true',
      '-Djava.security.auth.login.config=/d/j.conf',
      '-Dzookeeper.DigestAuthenticationProvider.superDigest=super:abc',
      '-Dx=1',
    ]);
  });
});

describe('JAAS files', () => {
  it('write a Server section with one user_ line per user, and a Client section', () => {
    expect(jaasServerConfig({ bob: 'secret', carol: 'pw' })).toBe(
      'Server {\n    org.apache.zookeeper.server.auth.DigestLoginModule required\n' +
        '    user_bob="secret"\n    user_carol="pw";\n};\n',
    );
    expect(jaasClientConfig('bob', 'secret')).toContain('username="bob"\n    password="secret";');
  });

  it('refuse values that would break the file, without echoing a password', () => {
    expect(() => jaasServerConfig({})).toThrow(TypeError);
    expect(() => jaasServerConfig({ 'bad name': 'x' })).toThrow(/user name/);
    expect(() => jaasServerConfig({ bob: 'se"cret' })).toThrow(/password must not contain/);
    expect(() => jaasServerConfig({ bob: 'se"cret' })).not.toThrow(/se"cret/);
  });
});
