import { afterEach, describe, expect, it, vi } from 'vitest';
import { findJavac } from './find-java.js';

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
