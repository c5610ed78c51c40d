import { paths } from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { checkNodeName, checkZnodePath, pathProblem } from './paths.js';

class BadArgument extends Error {}
const invalid = (argument: string, problem: string) => new BadArgument(`${argument} ${problem}`);

const samples = [
  '/',
  '/a',
  '/a/b',
  'a',
  '',
  '/a/',
  '//a',
  '/a//b',
  '/.',
  '/a/..',
  '/a/.b',
  '/a\u0000',
  '/a\u0001',
  '/a\u001f',
  '/a\u007f',
  '/a\u0085',
  '/a\u009f',
  '/a\u00a0',
  '/a\ud800',
  '/a\uf8ff',
  '/a\uf900',
  '/a\ufff0',
  '/a\uffff',
  '/zookeeper',
  '/caf\u00e9',
];

describe('pathProblem', () => {
  it('agrees with the client on every sample (the rules of Java PathUtils)', () => {
    for (const path of samples)
      expect(pathProblem(path) === null, JSON.stringify(path)).toBe(paths.isValid(path));
  });

  it("gives the client's own reason, word for word (one implementation of the rules)", () => {
    for (const path of [...samples, 7, undefined]) expect(pathProblem(path)).toBe(paths.problem(path));
    for (const path of [...samples, '/queue/'])
      expect(pathProblem(path, true)).toBe(paths.problem(path, { sequential: true }));
    expect(pathProblem('/queue/', true)).toBeNull();
    expect(pathProblem('/queue/')).not.toBeNull();
  });

  it('says what is wrong', () => {
    expect(pathProblem(7)).toBe('must be a string');
    expect(pathProblem('/a//b')).toMatch(/empty segment/);
    expect(pathProblem('/a/..')).toMatch(/"\.\." segment/);
    expect(pathProblem('/a\u007f')).toMatch(/U\+007F/);
  });
});

describe('checkZnodePath', () => {
  it('returns a valid path and refuses others with the caller family error', () => {
    expect(checkZnodePath('/a/b', 'path', invalid)).toBe('/a/b');
    expect(checkZnodePath('/q/', 'path', invalid, { sequential: true })).toBe('/q/');
    expect(() => checkZnodePath('/q/', 'path', invalid)).toThrow();
    expect(() => checkZnodePath('a', 'basePath', invalid)).toThrow(
      /^basePath must start with "\/", got "a"$/,
    );
    expect(() => checkZnodePath(undefined, 'path', invalid)).toThrow(BadArgument);
  });

  it('names the argument, says what is wrong and shows the value', () => {
    expect(() => checkZnodePath('/a//b', 'basePath', invalid)).toThrow(
      /^basePath must not have an empty segment \(index 3\), got "\/a\/\/b"$/,
    );
    expect(() => checkZnodePath('/a\u0085', 'path', invalid)).toThrow(
      /^path must not hold the character U\+0085/,
    );
    expect(() => checkZnodePath(7, 'path', invalid)).toThrow(/^path must be a string, got 7$/);
  });

  it('refuses the root unless allowed', () => {
    expect(() => checkZnodePath('/', 'path', invalid)).toThrow(/other than "\/"/);
    expect(checkZnodePath('/', 'path', invalid, { allowRoot: true })).toBe('/');
  });
});

describe('checkNodeName', () => {
  it('accepts what may stand as one segment', () => {
    expect(checkNodeName('orders', 'name', invalid)).toBe('orders');
    expect(checkNodeName('.hidden', 'name', invalid)).toBe('.hidden');
  });

  it('takes the path rules for the characters, saying where in "/<name>" the refused one is', () => {
    expect(checkNodeName('..x', 'name', invalid)).toBe('..x');
    expect(checkNodeName('caf\u00e9\u00a0', 'name', invalid)).toBe('caf\u00e9\u00a0');
    expect(() => checkNodeName('a\u0001', 'thisId', invalid)).toThrow(
      'thisId must be a valid node name, got "a\\u0001" (as the path "/a\\u0001", must not hold the character U+0001 (index 2))',
    );
    expect(() => checkNodeName('..', 'name', invalid)).toThrow(/^name must not be "\.\."$/);
  });

  it('refuses empty, "/", "." and "..", and refused characters', () => {
    for (const bad of ['', 'a/b', '.', '..', 'a\u0000', 'a\u0085', 'a\ufff5', 3]) {
      expect(() => checkNodeName(bad, 'name', invalid), JSON.stringify(bad)).toThrow(BadArgument);
    }
  });
});
