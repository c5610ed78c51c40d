import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findJavac, findZooKeeper, MissingComponentError } from './find-java.js';

describe('findZooKeeper', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('finds the Debian install with its version', () => {
    vi.stubEnv('ZOOKEEPER_HOME', '');
    const found = findZooKeeper();
    expect(found.classpath).toEqual(['/usr/share/java/zookeeper.jar', '/usr/share/java/slf4j-simple.jar']);
    expect(found.version).toBe('3.8.0');
  });

  it('names the package to install when ZOOKEEPER_HOME holds no ZooKeeper', () => {
    const empty = mkdtempSync(join(tmpdir(), 'zkwire-empty-'));
    vi.stubEnv('ZOOKEEPER_HOME', empty);
    try {
      expect(() => findZooKeeper()).toThrow(MissingComponentError);
      expect(() => findZooKeeper()).toThrow(/apt-get install zookeeper/);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it('takes the jars of a release tarball from ZOOKEEPER_HOME', () => {
    const home = mkdtempSync(join(tmpdir(), 'zkwire-home-'));
    writeFileSync(join(home, 'zookeeper-3.9.3.jar'), '');
    vi.stubEnv('ZOOKEEPER_HOME', home);
    try {
      expect(findZooKeeper()).toEqual({ classpath: [join(home, 'zookeeper-3.9.3.jar')], version: '3.9.3' });
    } finally {
      rmSync(home, { recursive: true });
    }
  });
});

describe('findJavac', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('names default-jdk-headless when javac is missing', () => {
    vi.stubEnv('PATH', '/nonexistent');
    vi.stubEnv('JAVA_HOME', '');
    expect(() => findJavac()).toThrow(/apt-get install default-jdk-headless/);
  });
});
