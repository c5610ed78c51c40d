import { existsSync } from 'node:fs';
import { MissingComponentError } from '../find-java.js';
import { findZooKeeper } from '../releases/zookeeper-release.js';

const DEBIAN_JAVA = '/usr/share/java';

/*
 * Debian's zookeeper.jar manifest pulls in most of Netty but not netty-codec (the TLS handler extends its
 * ByteToMessageDecoder: without it every TLS connection is dropped) nor netty-resolver (the Java client's
 * Netty socket needs it). A Maven release and a release tarball (ZOOKEEPER_HOME) bring both.
 */
function debianJar(source: string, name: string): string[] {
  if (source !== 'debian') return [];
  const jar = `${DEBIAN_JAVA}/${name}.jar`;
  if (!existsSync(jar)) throw new MissingComponentError(`Netty (${jar})`, 'libnetty-java');
  return [jar];
}

/** Classpath of a ZooKeeper server that serves a TLS client port (docs/security-setup.md). */
export function secureServerClasspath(version?: string): string[] {
  const zookeeper = findZooKeeper(version);
  return [...zookeeper.classpath, ...debianJar(zookeeper.source, 'netty-codec')];
}

/** Classpath of a Java ZooKeeper client that connects over TLS with `ClientCnxnSocketNetty`. */
export function secureJavaClientClasspath(version?: string): string[] {
  const zookeeper = findZooKeeper(version);
  return [...secureServerClasspath(version), ...debianJar(zookeeper.source, 'netty-resolver')];
}
