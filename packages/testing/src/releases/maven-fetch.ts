import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MissingComponentError } from '../find-java.js';

/** One Maven artifact, with the artifacts of its own dependencies to leave out. */
export interface MavenArtifact {
  groupId: string;
  artifactId: string;
  /** Left out when a BOM given to {@link mavenClasspath} manages it. */
  version?: string;
  /** `groupId:artifactId` pairs (`*` allowed as either) that this artifact's dependencies may not bring. */
  exclusions?: string[];
}

/** Thrown when Maven cannot resolve a set of artifacts; the message names them and holds Maven's output. */
export class ArtifactFetchError extends Error {
  override readonly name = 'ArtifactFetchError';
  constructor(
    readonly what: string,
    readonly mavenOutput: string,
  ) {
    super(`${what} could not be fetched from Maven Central. Maven said:\n${mavenOutput}`);
  }
}

/** Where fetched jars are kept between runs: `$ZKWIRE_CACHE_DIR`, else `~/.cache/zkwire` (outside the repository). */
export function cacheRoot(): string {
  return process.env.ZKWIRE_CACHE_DIR ?? join(homedir(), '.cache', 'zkwire');
}

const FETCH_TIMEOUT_MS = 15 * 60_000;
const OUTPUT_TAIL_LINES = 40;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function dependencyXml(artifact: MavenArtifact): string {
  const exclusions = (artifact.exclusions ?? [])
    .map((pair) => {
      const [groupId = '*', artifactId = '*'] = pair.split(':');
      return `<exclusion><groupId>${escapeXml(groupId)}</groupId><artifactId>${escapeXml(artifactId)}</artifactId></exclusion>`;
    })
    .join('');
  return [
    '<dependency>',
    `<groupId>${escapeXml(artifact.groupId)}</groupId>`,
    `<artifactId>${escapeXml(artifact.artifactId)}</artifactId>`,
    artifact.version === undefined ? '' : `<version>${escapeXml(artifact.version)}</version>`,
    exclusions ? `<exclusions>${exclusions}</exclusions>` : '',
    '</dependency>',
  ].join('');
}

/**
 * A POM that only lists the artifacts, for `mvn dependency:copy-dependencies`; `bom` (a POM whose
 * dependencyManagement gives versions, such as `org.apache.zookeeper:parent`) is imported when given.
 */
export function fetchPom(artifacts: MavenArtifact[], bom?: MavenArtifact): string {
  const managed = bom
    ? `<dependencyManagement><dependencies>${dependencyXml(bom).replace(
        '</dependency>',
        '<type>pom</type><scope>import</scope></dependency>',
      )}</dependencies></dependencyManagement>`
    : '';
  return [
    '<project xmlns="http://maven.apache.org/POM/4.0.0">',
    '<modelVersion>4.0.0</modelVersion>',
    '<groupId>zkwire.testing</groupId><artifactId>fetch</artifactId><version>1</version><packaging>pom</packaging>',
    managed,
    `<dependencies>${artifacts.map(dependencyXml).join('')}</dependencies>`,
    '</project>',
    '',
  ].join('\n');
}

function jarsIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jar'))
    .sort()
    .map((name) => join(dir, name));
}

function findMaven(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'mvn'))) return join(dir, 'mvn');
  }
  throw new MissingComponentError('Maven (`mvn`, to fetch ZooKeeper and Curator releases)', 'maven');
}

/**
 * The runtime jars of `artifacts` and all their dependencies, fetched once by the machine's Maven into
 * `<cacheRoot>/maven/<name>/` and reused by later runs. `name` must identify the set (it is the cache key).
 * Synchronous, so that the finders stay simple to call; a set is fetched into a private folder and renamed into
 * place, so parallel test workers never see half a set. Throws {@link ArtifactFetchError} with Maven's output
 * when the set cannot be had (a version that does not exist fails at once, not with a timeout).
 */
export function mavenClasspath(name: string, artifacts: MavenArtifact[], bom?: MavenArtifact): string[] {
  const dir = join(cacheRoot(), 'maven', name);
  if (existsSync(join(dir, '.complete'))) return jarsIn(dir);

  mkdirSync(join(cacheRoot(), 'maven'), { recursive: true });
  const work = mkdtempSync(join(cacheRoot(), 'maven', `.fetch-${name}-`));
  try {
    writeFileSync(join(work, 'pom.xml'), fetchPom(artifacts, bom));
    const lib = join(work, 'lib');
    try {
      execFileSync(
        findMaven(),
        [
          '-B',
          '-q',
          '-f',
          join(work, 'pom.xml'),
          'dependency:copy-dependencies',
          `-DoutputDirectory=${lib}`,
          '-DincludeScope=runtime',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], timeout: FETCH_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (error) {
      if (error instanceof MissingComponentError) throw error;
      const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
      const output = `${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`
        .split('\n')
        .filter((line) => line.trim() !== '')
        .slice(-OUTPUT_TAIL_LINES)
        .join('\n');
      throw new ArtifactFetchError(name, output || String(error));
    }
    writeFileSync(join(lib, '.complete'), '');
    try {
      renameSync(lib, dir);
    } catch (error) {
      // Another worker finished the same set first: theirs is as good as ours.
      if (!existsSync(join(dir, '.complete'))) throw error;
    }
    return jarsIn(dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
