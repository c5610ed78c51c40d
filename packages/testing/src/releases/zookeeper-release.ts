import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MissingComponentError } from '../find-java.js';
import { ArtifactFetchError, type MavenArtifact, mavenClasspath } from './maven-fetch.js';

/** The ZooKeeper release a test run uses when neither the call nor `ZKWIRE_ZK_VERSION` names one. */
export const DEFAULT_ZOOKEEPER_VERSION = '3.9.5';

/** Debian's packaged server (`apt-get install zookeeper`, 3.8.0 on Debian 12). */
export const DEBIAN = 'debian';

/** Where a ZooKeeper's jars came from. */
export type ZooKeeperSource = 'maven' | 'debian' | 'home';

/** The jars of one ZooKeeper release (server and Java client) and its version. */
export interface ZooKeeperRelease {
  /** Every jar to put on the classpath: ZooKeeper, its dependencies and an SLF4J binding. */
  classpath: string[];
  /** `3.9.5`, ...; Debian's and a `ZOOKEEPER_HOME`'s version is read from their jar names. */
  version: string;
  source: ZooKeeperSource;
}

const DEBIAN_JAVA = '/usr/share/java';
const RELEASE = /^\d+\.\d+\.\d+$/;

function jarsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jar'))
    .sort()
    .map((name) => join(dir, name));
}

function versionFromJarNames(jars: string[]): string {
  for (const jar of jars) {
    const match = /zookeeper-(\d+\.\d+\.\d+)\.jar$/.exec(jar);
    if (match?.[1]) return match[1];
  }
  return 'unknown';
}

/** `[major, minor, patch]` of a release version. */
export function versionParts(version: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((part) => Number.parseInt(part, 10));
  return [major, minor, patch];
}

/** True when `version` is `since` or later (both `x.y.z`). */
export function versionAtLeast(version: string, since: string): boolean {
  const a = versionParts(version);
  const b = versionParts(since);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/**
 * The version a run uses by default: `ZKWIRE_ZK_VERSION` when set, else `ZOOKEEPER_HOME`'s jars when that is set
 * (`home`), else {@link DEFAULT_ZOOKEEPER_VERSION}.
 */
export function defaultZooKeeperVersion(): string {
  const fromEnv = process.env.ZKWIRE_ZK_VERSION?.trim();
  if (fromEnv) return fromEnv;
  if (process.env.ZOOKEEPER_HOME) return 'home';
  return DEFAULT_ZOOKEEPER_VERSION;
}

function debianRelease(): ZooKeeperRelease {
  const server = join(DEBIAN_JAVA, 'zookeeper.jar');
  if (!existsSync(server)) {
    throw new MissingComponentError(
      `ZooKeeper server (${server})`,
      'zookeeper',
      ', or use a Maven release version',
    );
  }
  const logging = join(DEBIAN_JAVA, 'slf4j-simple.jar');
  if (!existsSync(logging)) throw new MissingComponentError(`SLF4J binding (${logging})`, 'libslf4j-java');
  return {
    classpath: [server, logging],
    version: versionFromJarNames(jarsIn(DEBIAN_JAVA)),
    source: 'debian',
  };
}

function homeRelease(): ZooKeeperRelease {
  const home = process.env.ZOOKEEPER_HOME ?? '';
  const jars = [...jarsIn(home), ...jarsIn(join(home, 'lib'))];
  if (!jars.some((jar) => /zookeeper-\d[^/]*\.jar$/.test(jar))) {
    throw new MissingComponentError(`ZooKeeper jars under ZOOKEEPER_HOME=${home}`, 'zookeeper');
  }
  return { classpath: jars, version: versionFromJarNames(jars), source: 'home' };
}

/** The SLF4J line (api and simple binding) a release's own SLF4J API belongs to. */
export function slf4jLineOf(zookeeperVersion: string): string {
  return versionAtLeast(zookeeperVersion, '3.9.0') ? '2.0.13' : '1.7.36';
}

/** The ZooKeeper artifact of a release, without the logging backend its POM brings (see below). */
export function zookeeperArtifact(version: string): MavenArtifact {
  return {
    groupId: 'org.apache.zookeeper',
    artifactId: 'zookeeper',
    version,
    exclusions: ['org.slf4j:slf4j-log4j12', 'log4j:log4j', 'ch.qos.logback:*'],
  };
}

/*
 * Releases up to 3.7 bring log4j 1.2 and its SLF4J binding, 3.8 brings logback and 3.9 SLF4J 2: every release
 * gets the simple binding of its SLF4J line instead, so that each server logs the same way (to stderr, which the
 * tests keep in server.log) without a log4j or logback configuration file. The release's POM marks what only its
 * tarball ships as "provided": metrics-core (3.6+, the server's metrics, loaded at start) and snappy-java
 * (snapshot compression) are added with the versions of the release's parent POM.
 */
function mavenRelease(version: string): ZooKeeperRelease {
  const provided = versionAtLeast(version, '3.6.0')
    ? [
        { groupId: 'io.dropwizard.metrics', artifactId: 'metrics-core' },
        { groupId: 'org.xerial.snappy', artifactId: 'snappy-java' },
      ]
    : [];
  const classpath = mavenClasspath(
    `zookeeper-${version}`,
    [
      zookeeperArtifact(version),
      ...provided,
      { groupId: 'org.slf4j', artifactId: 'slf4j-simple', version: slf4jLineOf(version) },
    ],
    { groupId: 'org.apache.zookeeper', artifactId: 'parent', version },
  );
  return { classpath, version, source: 'maven' };
}

/**
 * The jars of a ZooKeeper release: `version` (default {@link defaultZooKeeperVersion}) is a release number
 * fetched once from Maven Central into a cache outside the repository (`3.5.10` ... `3.9.5`), `debian` for
 * Debian's packaged 3.8.0, or `home` for `$ZOOKEEPER_HOME` (a release tarball). Throws
 * {@link ArtifactFetchError} naming the version, with Maven's output, when it cannot be had, and
 * {@link MissingComponentError} naming what to install when Maven or Debian's package is missing.
 */
export function findZooKeeper(version: string = defaultZooKeeperVersion()): ZooKeeperRelease {
  if (version === DEBIAN) return debianRelease();
  if (version === 'home') return homeRelease();
  if (!RELEASE.test(version)) {
    throw new ArtifactFetchError(
      `ZooKeeper ${version}`,
      `"${version}" is not a release version: use x.y.z (e.g. ${DEFAULT_ZOOKEEPER_VERSION}), "${DEBIAN}" or "home"`,
    );
  }
  return mavenRelease(version);
}
