import { join } from 'node:path';
import type { TestCertificates } from './certificates.js';

/** Whether the TLS port asks for a client certificate (`ssl.clientAuth`). */
export type ClientAuthMode = 'need' | 'want' | 'none';

/** Options of `startSecureZooKeeper`. */
export interface SecureZooKeeperOptions {
  /** The ZooKeeper release to run (as `startZooKeeper`'s `version`; default 3.9.5 or `ZKWIRE_ZK_VERSION`). */
  version?: string;
  /** Serve a TLS client port (default true). The plaintext port is always served too. */
  tls?: boolean;
  /** Certificates to use; default a fresh set from `makeTestCertificates`. */
  certificates?: TestCertificates;
  /** `ssl.clientAuth` of the TLS port (default 'need', the server's default). */
  clientAuth?: ClientAuthMode;
  /**
   * Also allow TLS 1.3 on releases before 3.9, which offer only TLS 1.2 by default (security-setup.md §2.2);
   * 3.9 offers TLS 1.3 and 1.2 by default.
   */
  tls13?: boolean;
  /**
   * SASL DIGEST-MD5 users (name → password) written into a JAAS `Server` section; omit for no SASL.
   * The `sasl` auth provider is registered so that `sasl:<user>` ACLs and whoAmI work.
   */
  saslUsers?: Record<string, string>;
  /** `zookeeper.DigestAuthenticationProvider.superDigest` (`super:<base64 sha1>`), for a digest superuser. */
  superDigest?: string;
  /** Extra zoo.cfg lines. */
  config?: Record<string, string | number>;
  /** Extra JVM flags. */
  jvmFlags?: string[];
  /** Heap in MiB (default 128). */
  heapMb?: number;
}

/* ZooKeeper's default suites are TLS 1.2 only, so TLS 1.3 also needs its suites listed (security-setup.md §2.2). */
const TLS13_SUITES =
  'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384';

/** Where one secure server lives: its directory, ports and certificates. */
export interface SecureLayout {
  dir: string;
  dataDir: string;
  host: string;
  port: number;
  securePort: number | undefined;
  certificates: TestCertificates | undefined;
  /** Path of the JAAS file, when there are SASL users. */
  jaasFile: string | undefined;
}

/**
 * zoo.cfg (security-setup.md §2): the Netty connection factory (the NIO one refuses a secure port), the TLS
 * port with PKCS#12 keystore and truststore, and the sasl auth provider when there are SASL users.
 */
export function secureZooCfg(options: SecureZooKeeperOptions, layout: SecureLayout): string {
  const cfg: Record<string, string | number> = {
    tickTime: 2000,
    dataDir: layout.dataDir,
    clientPortAddress: layout.host,
    clientPort: layout.port,
    'admin.enableServer': 'false',
    '4lw.commands.whitelist': '*',
    maxClientCnxns: 0,
    serverCnxnFactory: 'org.apache.zookeeper.server.NettyServerCnxnFactory',
  };
  const { certificates, securePort } = layout;
  if (certificates && securePort !== undefined) {
    Object.assign(cfg, {
      secureClientPortAddress: layout.host,
      secureClientPort: securePort,
      'ssl.keyStore.location': certificates.server.p12File,
      'ssl.keyStore.password': certificates.password,
      'ssl.trustStore.location': certificates.truststoreP12File,
      'ssl.trustStore.password': certificates.password,
      'ssl.clientAuth': options.clientAuth ?? 'need',
    });
    if (options.tls13) {
      Object.assign(cfg, {
        'ssl.protocol': 'TLSv1.3',
        'ssl.enabledProtocols': 'TLSv1.3,TLSv1.2',
        'ssl.ciphersuites': TLS13_SUITES,
      });
    }
  }
  if (options.saslUsers)
    cfg['authProvider.sasl'] = 'org.apache.zookeeper.server.auth.SASLAuthenticationProvider';
  Object.assign(cfg, options.config ?? {});
  return `${Object.entries(cfg)
    .map(([key, value]) => `${key}=${value}`)
    .join('\n')}\n`;
}

/** JVM flags: a small heap, the JAAS file (the only way to give it), the digest superuser. */
export function secureJvmFlags(options: SecureZooKeeperOptions, layout: SecureLayout): string[] {
  const flags = [`-Xmx${options.heapMb ?? 128}m`, '-XX:+UseSerialGC', '-Dzookeeper.jmx.log4j.disable=true'];
  if (layout.jaasFile) flags.push(`-Djava.security.auth.login.config=${layout.jaasFile}`);
  if (options.superDigest)
    flags.push(`-Dzookeeper.DigestAuthenticationProvider.superDigest=${options.superDigest}`);
  return [...flags, ...(options.jvmFlags ?? [])];
}

/** The JAAS file path inside a server directory. */
export function jaasFileIn(dir: string): string {
  return join(dir, 'jaas-server.conf');
}
