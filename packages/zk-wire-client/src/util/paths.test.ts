import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from './errors.js';
import { Chroot, pathProblem, paths, sequenceOf, validatePath } from './paths.js';

describe('path validation (PathUtils.validatePath)', () => {
  it.each(['/', '/a', '/a/b', '/a.b/..c', '/ü/日本', '/a-0000000001'])('accepts %j', (path) => {
    expect(pathProblem(path)).toBeNull();
  });

  it.each([
    ['', /empty/],
    ['a', /start with/],
    ['/a/', /end with/],
    ['/a//b', /empty segment/],
    ['/a/./b', /"\."/],
    ['/a/..', /"\.\."/],
    ['/a\u0000', /null character/],
    ['/a\u0001', /U\+0001/],
    ['/a\u007f', /U\+007F/],
    ['/a\u009f', /U\+009F/],
    ['/a\ud83d\ude00', /U\+D83D/],
    ['/a\ue000', /U\+E000/],
    ['/a\ufff0', /U\+FFF0/],
  ])('refuses %j', (path, problem) => {
    expect(pathProblem(path)).toMatch(problem);
  });

  it('lets a sequential create end with "/"', () => {
    expect(pathProblem('/queue/', true)).toBeNull();
    expect(pathProblem('/queue/')).not.toBeNull();
  });

  it('says what is wrong in words that read after the argument, with the index of the offending character', () => {
    expect(pathProblem(7)).toBe('must be a string');
    expect(pathProblem('')).toBe('must not be empty');
    expect(pathProblem('a/b')).toBe('must start with "/"');
    expect(pathProblem('/a/')).toBe('must not end with "/"');
    expect(pathProblem('//a')).toBe('must not have an empty segment (index 1)');
    expect(pathProblem('/a//b')).toBe('must not have an empty segment (index 3)');
    expect(pathProblem('/.')).toBe('must not have a "." segment');
    expect(pathProblem('/a/../b')).toBe('must not have a ".." segment');
    expect(pathProblem('/a\u0000')).toBe('must not hold the null character U+0000 (index 2)');
    expect(pathProblem('/ab\u001f')).toBe('must not hold the character U+001F (index 3)');
  });

  it('draws the character ranges where Java PathUtils draws them', () => {
    for (const c of [0x01, 0x1f, 0x7f, 0x85, 0x9f, 0xd800, 0xdfff, 0xe000, 0xf8ff, 0xfff0, 0xffff]) {
      expect(pathProblem(`/a${String.fromCharCode(c)}`), c.toString(16)).toMatch(
        /^must not hold the character U\+/,
      );
    }
    for (const c of [0x20, 0x7e, 0xa0, 0xd7ff, 0xf900, 0xffef]) {
      expect(pathProblem(`/a${String.fromCharCode(c)}`), c.toString(16)).toBeNull();
    }
  });

  it("checks a sequential path with the server's suffix appended", () => {
    expect(pathProblem('/', true)).toBeNull();
    expect(pathProblem('/q/.', true)).toBeNull(); // becomes "/q/.0000000001"
    expect(pathProblem('/q//', true)).toBe('must not have an empty segment (index 3)');
    expect(pathProblem('q-', true)).toBe('must start with "/"');
  });

  it('gives the same reason through paths.problem, and null for a valid path', () => {
    for (const path of ['/a', '/a//b', '/a/', '/a\u0001', 42]) {
      expect(paths.problem(path)).toBe(pathProblem(path));
    }
    expect(paths.problem('/queue/', { sequential: true })).toBeNull();
    expect(() => paths.validate('/a//b')).toThrow(
      'Invalid path: "/a//b" must not have an empty segment (index 3)',
    );
  });

  it('throws InvalidArgumentError naming the argument and the operation', () => {
    expect(() => validatePath('x', { operation: 'getData' })).toThrow(InvalidArgumentError);
    try {
      validatePath(42);
    } catch (error) {
      expect(error).toMatchObject({ argument: 'path', code: 'BADARGUMENTS' });
    }
  });
});

describe('path helpers', () => {
  it('joins, splits, and takes parents and basenames', () => {
    expect(paths.join('/a', 'b', 'c/d')).toBe('/a/b/c/d');
    expect(paths.join('/', '')).toBe('/');
    expect(paths.split('/a/b')).toEqual(['a', 'b']);
    expect(paths.split('/')).toEqual([]);
    expect(paths.parent('/a/b')).toBe('/a');
    expect(paths.parent('/a')).toBe('/');
    expect(paths.parent('/')).toBe('/');
    expect(paths.basename('/a/b')).toBe('b');
  });

  it('reads sequence suffixes', () => {
    expect(sequenceOf('item-0000000042')).toBe(42);
    expect(sequenceOf('/q/lock-2147483647')).toBe(2147483647);
    expect(sequenceOf('x-00000001')).toBeNull();
    expect(sequenceOf('x-000000001')).toBe(-1);
    expect(sequenceOf('-000000001')).toBe(-1);
    expect(sequenceOf('plain')).toBeNull();
  });
});

describe('chroot', () => {
  it('maps client paths to server paths and back', () => {
    const chroot = new Chroot('/app/a');
    expect(chroot.toServer('/')).toBe('/app/a');
    expect(chroot.toServer('/x')).toBe('/app/a/x');
    expect(chroot.toClient('/app/a')).toBe('/');
    expect(chroot.toClient('/app/a/x/y')).toBe('/x/y');
    // Outside the chroot (and /zookeeper) paths pass through; a sibling prefix is not inside.
    expect(chroot.toClient('/zookeeper/config')).toBe('/zookeeper/config');
    expect(chroot.toClient('/app/ab')).toBe('/app/ab');
  });

  it('has chroot-aware helpers', () => {
    expect(paths.withChroot('/app', '/x')).toBe('/app/x');
    expect(paths.withChroot('/app', '/')).toBe('/app');
    expect(paths.withChroot('', '/x')).toBe('/x');
    expect(paths.withoutChroot('/app', '/app/x/y')).toBe('/x/y');
    expect(paths.withoutChroot('/app', '/app')).toBe('/');
  });

  it('treats "/" and no chroot as none, and refuses an invalid one', () => {
    expect(new Chroot('/').toServer('/x')).toBe('/x');
    expect(new Chroot(undefined).toClient('/x')).toBe('/x');
    expect(() => new Chroot('/app/')).toThrow(InvalidArgumentError);
  });
});
