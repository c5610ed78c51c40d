import { describe, expect, it } from 'vitest';
import { InvalidModelArgumentError, UnresolvedPathError } from './errors.js';
import { ZPath, zpath } from './zpath.js';

describe('zpath (Curator ZPath.parseWithIds)', () => {
  it('parses names and {name} / {} parameters', () => {
    const p = zpath('/one/two/{first}/three/{}');
    expect(p.parameterNames).toEqual(['first', '']);
    expect(p.isResolved).toBe(false);
    expect(p.toString()).toBe('/one/two/{first}/three/{}');
    expect(p.nodeName).toBe('{}');
    expect(zpath('/').isRoot).toBe(true);
    expect(zpath('/').toString()).toBe('/');
    expect(zpath('/a/b').isResolved).toBe(true);
  });

  it('gives a copy of its parameter names: changing it leaves the path as it was', () => {
    const p = zpath('/a/{id}');
    p.parameterNames.pop();
    expect(p.parameterNames).toEqual(['id']);
    expect(p.isResolved).toBe(false);
    expect(() => p.fullPath()).toThrow(UnresolvedPathError);
  });

  it('refuses malformed templates before anything else', () => {
    for (const bad of ['', 'a/b', '/a/', '/a//b', '/a/./b', '/a/..', '/a/b\u0000']) {
      expect(() => zpath(bad), bad).toThrow(InvalidModelArgumentError);
    }
  });

  it('checks each resolved value as one znode name', () => {
    const p = zpath('/tenants/{id}/quota');
    for (const bad of ['a/b', '.', '..', '', 'x\u0001']) {
      expect(() => p.resolve({ id: bad }), JSON.stringify(bad)).toThrow(InvalidModelArgumentError);
    }
    expect(() => p.resolve(Number.NaN)).toThrow(InvalidModelArgumentError);
    expect(p.resolve(42n).fullPath()).toBe('/tenants/42/quota');
    expect(p.resolve({ id: { nodeName: () => 'n1' } }).fullPath()).toBe('/tenants/n1/quota');
    expect(() => p.resolve({ nodeName: () => 'a/b' })).toThrow(/contains "\/"/);
  });

  it('gives the same ZPath for the same values, by name or by position', () => {
    const p = zpath('/tenants/{id}/users/{user}');
    const resolved = p.resolve({ id: 't1', user: 'u1' });
    expect(p.resolve('t1', 'u1')).toBe(resolved);
    expect(p.resolve({ user: 'u1', id: { nodeName: () => 't1' } })).toBe(resolved);
    expect(p.resolve('t1', 'u2')).not.toBe(resolved);
    expect(p.resolve('t1', 'u2').fullPath()).toBe('/tenants/t1/users/u2');
    // values are checked on every resolve, kept or not
    expect(() => p.resolve('t1', 'u/1')).toThrow(InvalidModelArgumentError);
    const one = zpath('/n/{id}');
    expect(one.resolve(7)).toBe(one.resolve('7'));
  });

  it('gives the same value to a name used twice', () => {
    expect(zpath('/a/{id}/b/{id}').resolve({ id: 'x' }).fullPath()).toBe('/a/x/b/x');
  });

  it('fullPath throws while parameters are left', () => {
    expect(() => zpath('/a/{id}').fullPath()).toThrow(UnresolvedPathError);
  });

  it('child, parent, startsWith, equals as Curator', () => {
    const base = zpath('/a/b');
    expect(base.child('c').toString()).toBe('/a/b/c');
    expect(base.child(7).toString()).toBe('/a/b/7');
    expect(() => base.child('x/y')).toThrow(InvalidModelArgumentError);
    expect(base.child('{id}').isResolved).toBe(false);
    expect(base.parent().toString()).toBe('/a');
    expect(base.parent().parent().isRoot).toBe(true);
    expect(() => ZPath.root.parent()).toThrow(InvalidModelArgumentError);
    expect(zpath('/one/two/three').startsWith(zpath('/one/two'))).toBe(true);
    expect(zpath('/one/two/three').startsWith('/one/tw')).toBe(false);
    expect(zpath('/one').startsWith('/one/two')).toBe(false);
    expect(zpath('/a/{id}/c').startsWith('/a/{id}')).toBe(true);
    expect(zpath('/a/{id}/c').startsWith('/a/{other}')).toBe(false);
    expect(zpath('/a/{id}').equals(zpath('/a').child('{id}'))).toBe(true);
    expect(zpath('/').startsWith('/')).toBe(true);
  });

  it('matches resolved paths with its schema pattern', () => {
    const pattern = zpath('/a.b/{id}/c').toSchemaPathPattern();
    expect(pattern.test('/a.b/x/c')).toBe(true);
    expect(pattern.test('/aXb/x/c')).toBe(false);
    expect(pattern.test('/a.b/x/y/c')).toBe(false);
  });
});
