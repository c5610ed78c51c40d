import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MissingComponentError } from '../find-java.js';
import { ArtifactFetchError, fetchPom } from './maven-fetch.js';
import {
  DEFAULT_ZOOKEEPER_VERSION,
  defaultZooKeeperVersion,
  findZooKeeper,
  versionAtLeast,
} from './zookeeper-release.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'zkwire-release-test-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the default version', () => {
  it('is 3.9.5 unless the run names one', () => {
    vi.stubEnv('ZKWIRE_ZK_VERSION', '');
    vi.stubEnv('ZOOKEEPER_HOME', '');
    expect(defaultZooKeeperVersion()).toBe('3.9.5');
    expect(DEFAULT_ZOOKEEPER_VERSION).toBe('3.9.5');
  });

  it('is ZKWIRE_ZK_VERSION for a whole run, ahead of ZOOKEEPER_HOME', () => {
    vi.stubEnv('ZOOKEEPER_HOME', scratch);
    vi.stubEnv('ZKWIRE_ZK_VERSION', '3.6.4');
    expect(defaultZooKeeperVersion()).toBe('3.6.4');
    vi.stubEnv('ZKWIRE_ZK_VERSION', '');
    expect(defaultZooKeeperVersion()).toBe('home');
  });
});

describe('findZooKeeper', () => {
  it('finds the Debian install with its version', () => {
    const found = findZooKeeper('debian');
    expect(found.classpath).toEqual(['/usr/share/java/zookeeper.jar', '/usr/share/java/slf4j-simple.jar']);
    expect(found.version).toBe('3.8.0');
    expect(found.source).toBe('debian');
  });

  it('takes a fetched release from the cache without asking Maven again', () => {
    vi.stubEnv('ZKWIRE_CACHE_DIR', scratch);
    vi.stubEnv('PATH', '/nonexistent'); // no mvn: a cache miss would throw
    const dir = join(scratch, 'maven', 'zookeeper-3.7.2');
    mkdirSync(dir, { recursive: true });
    for (const jar of ['zookeeper-3.7.2.jar', 'zookeeper-jute-3.7.2.jar', '.complete']) {
      writeFileSync(join(dir, jar), '');
    }
    const found = findZooKeeper('3.7.2');
    expect(found).toEqual({
      classpath: [join(dir, 'zookeeper-3.7.2.jar'), join(dir, 'zookeeper-jute-3.7.2.jar')],
      version: '3.7.2',
      source: 'maven',
    });
  });

  it('names Maven as what to install when a release must be fetched without it', () => {
    vi.stubEnv('ZKWIRE_CACHE_DIR', scratch);
    vi.stubEnv('PATH', '/nonexistent');
    expect(() => findZooKeeper('3.9.4')).toThrow(MissingComponentError);
    expect(() => findZooKeeper('3.9.4')).toThrow(/apt-get install maven/);
  });

  it('refuses a version that is not a release number, naming it', () => {
    expect(() => findZooKeeper('latest')).toThrow(ArtifactFetchError);
    expect(() => findZooKeeper('latest')).toThrow(/"latest" is not a release version/);
  });

  it('names the package to install when ZOOKEEPER_HOME holds no ZooKeeper', () => {
    vi.stubEnv('ZOOKEEPER_HOME', scratch);
    expect(() => findZooKeeper('home')).toThrow(/apt-get install zookeeper/);
  });

  it('takes the jars of a release tarball from ZOOKEEPER_HOME', () => {
    writeFileSync(join(scratch, 'zookeeper-3.9.3.jar'), '');
    vi.stubEnv('ZOOKEEPER_HOME', scratch);
    expect(findZooKeeper('home')).toEqual({
      classpath: [join(scratch, 'zookeeper-3.9.3.jar')],
      version: '3.9.3',
      source: 'home',
    });
  });
});

describe('versions and POMs', () => {
  it('compares release numbers part by part', () => {
    expect(versionAtLeast('3.10.0', '3.9.5')).toBe(true);
    expect(versionAtLeast('3.9.5', '3.9.5')).toBe(true);
    expect(versionAtLeast('3.5.10', '3.6.0')).toBe(false);
  });

  it('lists each artifact with its exclusions, escaped', () => {
    const pom = fetchPom([
      {
        groupId: 'org.apache.zookeeper',
        artifactId: 'zookeeper',
        version: '3.9.5',
        exclusions: ['log4j:log4j'],
      },
    ]);
    expect(pom).toContain('<artifactId>zookeeper</artifactId><version>3.9.5</version>');
    expect(pom).toContain('<exclusion><groupId>log4j</groupId><artifactId>log4j</artifactId></exclusion>');
  });
});
