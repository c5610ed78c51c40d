import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MissingComponentError } from '../find-java.js';
import { mavenClasspath } from './maven-fetch.js';
import {
  DEBIAN,
  DEFAULT_ZOOKEEPER_VERSION,
  findZooKeeper,
  slf4jLineOf,
  zookeeperArtifact,
} from './zookeeper-release.js';

/** The Curator release a test run uses when neither the call nor `ZKWIRE_CURATOR_VERSION` names one. */
export const DEFAULT_CURATOR_VERSION = '5.9.0';

/** Options of {@link findCurator}. */
export interface FindCuratorOptions {
  /** A Curator release (`5.9.0`, `5.4.0`, ...) fetched from Maven Central, or `debian` (Debian's 5.4.0). */
  version?: string;
  /** Curator modules beyond client, framework and recipes: `curator-x-discovery`, `curator-x-async`. */
  modules?: string[];
}

/** The jars of one Curator release with the ZooKeeper client it runs on. */
export interface CuratorRelease {
  classpath: string[];
  /** `5.9.0`, ...; `5.4.0` for Debian's. */
  version: string;
}

const DEBIAN_JAVA = '/usr/share/java';
const DEBIAN_CURATOR_VERSION = '5.4.0';
const CORE = ['curator-client', 'curator-framework', 'curator-recipes'];

/** `ZKWIRE_CURATOR_VERSION` when set, else {@link DEFAULT_CURATOR_VERSION}. */
export function defaultCuratorVersion(): string {
  return process.env.ZKWIRE_CURATOR_VERSION?.trim() || DEFAULT_CURATOR_VERSION;
}

/* Debian packages curator-x-discovery (with its Jackson) but not curator-x-async. */
const DEBIAN_MODULE_JARS: Record<string, { jars: string[]; debianPackage: string }> = {
  'curator-x-discovery': {
    jars: ['curator-x-discovery', 'jackson-core', 'jackson-databind', 'jackson-annotations'],
    debianPackage: 'libcurator-discovery-java',
  },
};

function debianCurator(modules: string[]): CuratorRelease {
  const jars: string[] = [];
  for (const name of CORE) jars.push(join(DEBIAN_JAVA, `${name}.jar`));
  for (const module of modules) {
    const known = DEBIAN_MODULE_JARS[module];
    if (!known) {
      throw new MissingComponentError(
        `${module} in Debian's Curator`,
        'libcurator-recipes-java',
        ` (Debian does not package ${module}: use a Maven version such as ${DEFAULT_CURATOR_VERSION})`,
      );
    }
    for (const name of known.jars) {
      const jar = join(DEBIAN_JAVA, `${name}.jar`);
      if (!existsSync(jar)) throw new MissingComponentError(`${module} (${jar})`, known.debianPackage);
      jars.push(jar);
    }
  }
  const missing = jars.find((jar) => !existsSync(jar));
  if (missing) throw new MissingComponentError(`Apache Curator (${missing})`, 'libcurator-recipes-java');
  const guava = join(DEBIAN_JAVA, 'guava.jar');
  if (existsSync(guava)) jars.push(guava);
  return { classpath: [...jars, ...findZooKeeper(DEBIAN).classpath], version: DEBIAN_CURATOR_VERSION };
}

/*
 * A Maven Curator runs on the 3.9.5 Java client whatever server a run tests: Curator 5 needs a 3.6+ client (it
 * talks to 3.5 servers through its compatibility checks), and its interop tests prove Curator's layouts, not the
 * Java client's wire protocol, which the conformance test proves per server version.
 */
function mavenCurator(version: string, modules: string[]): CuratorRelease {
  const zookeeperVersion = DEFAULT_ZOOKEEPER_VERSION;
  const slf4j = slf4jLineOf(zookeeperVersion);
  const names = [...new Set([...CORE, ...modules])].sort();
  // The cache key names what decides the set's jars; its last part counts changes to how a set is made.
  const classpath = mavenClasspath(
    `curator-${version}-${names.join('+')}-zk-${zookeeperVersion}-2`,
    [
      zookeeperArtifact(zookeeperVersion),
      ...names.map((artifactId) => ({
        groupId: 'org.apache.curator',
        artifactId,
        version,
        exclusions: ['org.apache.zookeeper:zookeeper'],
      })),
      // curator-x-async declares Jackson optional (its JacksonModelSerializer needs it): the version of
      // Curator's parent POM is added.
      ...(names.includes('curator-x-async')
        ? [{ groupId: 'com.fasterxml.jackson.core', artifactId: 'jackson-databind' }]
        : []),
      // Both pinned: Curator's parent POM manages an SLF4J 1.7 that the 3.9 client's binding would not match.
      { groupId: 'org.slf4j', artifactId: 'slf4j-api', version: slf4j },
      { groupId: 'org.slf4j', artifactId: 'slf4j-simple', version: slf4j },
    ],
    { groupId: 'org.apache.curator', artifactId: 'apache-curator', version },
  );
  return { classpath, version };
}

/**
 * Locates Apache Curator (client, framework, recipes and `modules`) with the ZooKeeper client jars it runs on:
 * `version` (default {@link defaultCuratorVersion}, 5.9.0) is fetched once from Maven Central into the cache;
 * `debian` is Debian's `libcurator-recipes-java` 5.4.0 on Debian's ZooKeeper. Throws
 * {@link ArtifactFetchError} or {@link MissingComponentError} naming what is missing.
 */
export function findCurator(options: FindCuratorOptions = {}): CuratorRelease {
  const version = options.version ?? defaultCuratorVersion();
  const modules = options.modules ?? [];
  if (version === DEBIAN) return debianCurator(modules);
  return mavenCurator(version, modules);
}
