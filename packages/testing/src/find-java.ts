import { existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const DEBIAN_JAVA = '/usr/share/java';

/** Thrown when a Java component the tests need is not installed; the message says what to install. */
export class MissingComponentError extends Error {
  override readonly name = 'MissingComponentError';
  /** The Debian package that provides the component. */
  readonly debianPackage: string;
  constructor(what: string, debianPackage: string, hint = '') {
    super(
      `${what} not found. Install it with \`apt-get install ${debianPackage}\` (or run \`npm run setup\` as root)${hint}.`,
    );
    this.debianPackage = debianPackage;
  }
}

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

/**
 * Locates the ZooKeeper server jars: `$ZOOKEEPER_HOME` (a release tarball: its root and `lib/` jars) when set,
 * else Debian's layout (`/usr/share/java/zookeeper.jar`, whose manifest pulls in its dependencies, plus
 * `slf4j-simple.jar` so the server logs). Throws {@link MissingComponentError} naming the package to install.
 */
export function findZooKeeper(): { classpath: string[]; version: string } {
  const home = process.env.ZOOKEEPER_HOME;
  if (home) {
    const jars = [...jarsIn(home), ...jarsIn(join(home, 'lib'))];
    if (!jars.some((jar) => /zookeeper-\d[^/]*\.jar$/.test(jar))) {
      throw new MissingComponentError(`ZooKeeper jars under ZOOKEEPER_HOME=${home}`, 'zookeeper');
    }
    return { classpath: jars, version: versionFromJarNames(jars) };
  }
  const server = join(DEBIAN_JAVA, 'zookeeper.jar');
  if (!existsSync(server)) {
    throw new MissingComponentError(`ZooKeeper server (${server})`, 'zookeeper', ', or set ZOOKEEPER_HOME');
  }
  const logging = join(DEBIAN_JAVA, 'slf4j-simple.jar');
  if (!existsSync(logging)) throw new MissingComponentError(`SLF4J binding (${logging})`, 'libslf4j-java');
  return { classpath: [server, logging], version: versionFromJarNames(jarsIn(DEBIAN_JAVA)) };
}

/**
 * Locates Apache Curator (client, framework, recipes) from Debian's `libcurator-recipes-java`, together with
 * the ZooKeeper client jars it needs. Throws {@link MissingComponentError} naming the package.
 */
export function findCurator(): { classpath: string[] } {
  const curator = ['curator-client', 'curator-framework', 'curator-recipes'].map((name) =>
    join(DEBIAN_JAVA, `${name}.jar`),
  );
  const missing = curator.find((jar) => !existsSync(jar));
  if (missing) throw new MissingComponentError(`Apache Curator (${missing})`, 'libcurator-recipes-java');
  return { classpath: [...curator, ...findZooKeeper().classpath] };
}

function onPath(name: string): string | undefined {
  const javaHome = process.env.JAVA_HOME;
  if (javaHome) {
    const candidate = join(javaHome, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Path of the `java` launcher (`$JAVA_HOME/bin/java`, else `PATH`); throws naming `default-jre-headless`. */
export function findJava(): string {
  const java = onPath('java');
  if (!java) throw new MissingComponentError('Java runtime (`java`)', 'default-jre-headless');
  return java;
}

/** Path of the `javac` compiler (`$JAVA_HOME/bin/javac`, else `PATH`); throws naming `default-jdk-headless`. */
export function findJavac(): string {
  const javac = onPath('javac');
  if (!javac) throw new MissingComponentError('Java compiler (`javac`)', 'default-jdk-headless');
  return javac;
}
