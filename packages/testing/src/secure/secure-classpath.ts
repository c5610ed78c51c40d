import { existsSync } from 'node:fs';
import { findZooKeeper, MissingComponentError } from '../find-java.js';

const DEBIAN_JAVA = '/usr/share/java';

/*
 * Debian's zookeeper.jar manifest pulls in most of Netty but not netty-codec (the TLS handler extends its
 * ByteToMessageDecoder: without it every TLS connection is dropped) nor netty-resolver (the Java client's
 * Netty socket needs it). A release tarball (ZOOKEEPER_HOME) ships both in lib/, which findZooKeeper adds.
 */
function debianJar(name: string): string[] {
  if (process.env.ZOOKEEPER_HOME) return [];
  const jar = `${DEBIAN_JAVA}/${name}.jar`;
  if (!existsSync(jar)) throw new MissingComponentError(`Netty (${jar})`, 'libnetty-java');
  return [jar];
}

/** Classpath of a ZooKeeper server that serves a TLS client port (security-setup.md §0). */
export function secureServerClasspath(): string[] {
  return [...findZooKeeper().classpath, ...debianJar('netty-codec')];
}

/** Classpath of a Java ZooKeeper client that connects over TLS with `ClientCnxnSocketNetty`. */
export function secureJavaClientClasspath(): string[] {
  return [...secureServerClasspath(), ...debianJar('netty-resolver')];
}
