/**
 * Secure ZooKeeper for tests: TLS client port (Netty), x509 client certificates, SASL DIGEST-MD5 via JAAS.
 * Certificates are made at test time with openssl and keytool; see security-setup.md.
 */
export {
  type CertificateFiles,
  type MakeCertificatesOptions,
  makeTestCertificates,
  type TestCertificates,
} from './certificates.js';
export { jaasClientConfig, jaasServerConfig } from './jaas.js';
export { secureJavaClientClasspath, secureServerClasspath } from './secure-classpath.js';
export type { ClientAuthMode, SecureZooKeeperOptions } from './secure-config.js';
export { type SecureZooKeeperServer, startSecureZooKeeper } from './secure-zookeeper.js';
