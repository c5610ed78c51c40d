import { describe, expect, it } from 'vitest';
import { CacheTree, childPath, depthBelow, parentOf } from './cache-tree.js';

const entry = (path: string) => ({ path, stat: {} as never, data: null });

describe('CacheTree', () => {
  it('indexes children and removes a subtree deepest first', () => {
    const tree = new CacheTree();
    for (const path of ['/r', '/r/a', '/r/a/x', '/r/a/x/y', '/r/b']) tree.set(entry(path));
    expect(tree.childPaths('/r').sort()).toEqual(['/r/a', '/r/b']);
    const removed = tree.removeSubtree('/r/a').map((e) => e.path);
    expect(removed).toEqual(['/r/a/x/y', '/r/a/x', '/r/a']);
    expect(tree.childPaths('/r')).toEqual(['/r/b']);
    expect(tree.size).toBe(2);
    expect(tree.removeSubtree('/r/missing')).toEqual([]);
  });

  it('gives snapshots that later changes do not touch', () => {
    const tree = new CacheTree();
    tree.set(entry('/a'));
    const snapshot = tree.snapshot();
    tree.set(entry('/b'));
    tree.removeSubtree('/a');
    expect(snapshot.map((e) => e.path)).toEqual(['/a']);
  });

  it('path helpers handle the root', () => {
    expect(parentOf('/a')).toBe('/');
    expect(parentOf('/a/b')).toBe('/a');
    expect(childPath('/', 'a')).toBe('/a');
    expect(childPath('/a', 'b')).toBe('/a/b');
    expect(depthBelow('/a', '/a')).toBe(0);
    expect(depthBelow('/a', '/a/b/c')).toBe(2);
    expect(depthBelow('/a', '/ab')).toBe(-1);
    expect(depthBelow('/', '/x/y')).toBe(2);
  });
});
