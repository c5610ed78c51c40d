import { describe, expect, it } from 'vitest';
import { CacheTree, childPath, depthBelow, parentOf } from './cache-tree.js';

const stat = (version: number) => ({
  czxid: 1n,
  mzxid: BigInt(version + 1),
  ctime: 3n,
  mtime: 4n,
  version,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: -5n,
  dataLength: 1,
  numChildren: 0,
  pzxid: 6n,
});
const put = (tree: CacheTree, path: string) => tree.set(path, stat(0), null);

describe('CacheTree', () => {
  it('indexes children and removes a subtree deepest first', () => {
    const tree = new CacheTree('/r');
    for (const path of ['/r', '/r/a', '/r/a/x', '/r/a/x/y', '/r/b']) put(tree, path);
    expect(tree.childPaths('/r').sort()).toEqual(['/r/a', '/r/b']);
    const removed = tree.removeSubtree('/r/a').map((e) => e.path);
    expect(removed).toEqual(['/r/a/x/y', '/r/a/x', '/r/a']);
    expect(tree.childPaths('/r')).toEqual(['/r/b']);
    expect(tree.size).toBe(2);
    expect(tree.removeSubtree('/r/missing')).toEqual([]);
  });

  it('holds a node stored before its parent without counting the parent, until the parent arrives', () => {
    const tree = new CacheTree('/r');
    put(tree, '/r/a/b/c');
    expect(tree.size).toBe(1);
    expect(tree.get('/r/a')).toBeUndefined();
    expect(tree.has('/r')).toBe(false);
    expect(tree.paths()).toEqual(['/r/a/b/c']);
    expect(tree.childPaths('/r/a')).toEqual(['/r/a/b']); // reserved, so a listing can still drop it
    expect(tree.children('/r/a')).toEqual([]);
    put(tree, '/r/a');
    expect(tree.size).toBe(2);
    expect(tree.get('/r/a')?.path).toBe('/r/a');
    // Removing the only cached descendant of reserved nodes lets them go too; '/r/a' is real and stays.
    expect(tree.removeSubtree('/r/a/b/c').map((e) => e.path)).toEqual(['/r/a/b/c']);
    expect(tree.childPaths('/r/a')).toEqual([]);
    expect(tree.paths()).toEqual(['/r/a']);
    expect(tree.removeSubtree('/elsewhere')).toEqual([]);
    expect(tree.set('/elsewhere/x', stat(0), null)).toBeUndefined();
    expect(tree.size).toBe(1);
  });

  it('gives snapshots that later changes do not touch', () => {
    const tree = new CacheTree('/');
    put(tree, '/a');
    const snapshot = tree.snapshot();
    put(tree, '/b');
    tree.removeSubtree('/a');
    expect(snapshot.map((e) => e.path)).toEqual(['/a']);
  });

  it('keeps Stat and bytes exactly, across replacements, frees and arena compactions', () => {
    const tree = new CacheTree('/');
    const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
    tree.set('/keep', stat(0), bytes(10, 1));
    tree.set('/none', stat(0), null);
    tree.set('/empty', stat(0), new Uint8Array(0));
    // Enough churn to fill and compact the arena several times over.
    for (let round = 1; round <= 40; round++) {
      for (let i = 0; i < 50; i++) tree.set(`/n${i}`, stat(round), bytes(1000 + i, round % 256));
      if (round % 7 === 0) for (let i = 0; i < 25; i++) tree.removeSubtree(`/n${i}`);
    }
    const before = tree.get('/n3')?.data;
    tree.trim();
    expect(before).toEqual(bytes(1003, 40)); // a view handed out earlier is unchanged by the compaction
    const previous = tree.set('/keep', stat(1), bytes(3, 9));
    expect(previous?.data).toEqual(bytes(10, 1));
    expect(previous?.stat).toEqual(stat(0));
    expect(tree.get('/keep')?.data).toEqual(bytes(3, 9));
    expect(tree.get('/keep')?.stat).toEqual(stat(1));
    expect(tree.get('/none')?.data).toBeNull();
    expect(tree.get('/empty')?.data).toEqual(new Uint8Array(0));
    for (let i = 0; i < 50; i++) {
      expect(tree.get(`/n${i}`)?.data).toEqual(bytes(1000 + i, 40));
      expect(tree.get(`/n${i}`)?.stat.version).toBe(40);
    }
    expect(tree.size).toBe(53);
  });

  it('keeps bytes exactly through changes after the load, when compactions leave only a quarter of room', () => {
    const tree = new CacheTree('/');
    const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
    // 100 KB live: above the smallest arena, so every compaction after the trim sizes it by the live bytes.
    for (let i = 0; i < 100; i++) tree.set(`/n${i}`, stat(0), bytes(1000 + i, 0));
    tree.trim();
    const loaded = tree.get('/n7')?.data;
    for (let round = 1; round <= 30; round++) {
      for (let i = round % 2; i < 100; i += 2)
        tree.set(`/n${i}`, stat(round), bytes(1000 + i + round, round));
      if (round % 10 === 0) tree.set(`/new${round}`, stat(round), bytes(5000, round));
    }
    expect(loaded).toEqual(bytes(1007, 0)); // a view from before the compactions is unchanged
    for (let i = 0; i < 100; i++) {
      const last = i % 2 === 0 ? 30 : 29;
      expect(tree.get(`/n${i}`)?.data, `/n${i}`).toEqual(bytes(1000 + i + last, last));
      expect(tree.get(`/n${i}`)?.stat.version).toBe(last);
    }
    expect(tree.get('/new20')?.data).toEqual(bytes(5000, 20));
    expect(tree.size).toBe(103);
  });

  it('keys long child names by their own strings, found again from any path', () => {
    const tree = new CacheTree('/');
    const long = 'member_0000000042-with-a-long-name';
    tree.set(`/queue/${long}`, stat(1), new Uint8Array([1]));
    tree.set(`/queue/${long}/é-ü-€-long-unicode-name`, stat(2), null);
    expect(tree.get(`/queue/${long}`)?.stat.version).toBe(1);
    expect(tree.has(`/queue/${long}/é-ü-€-long-unicode-name`)).toBe(true);
    expect(tree.childPaths('/queue')).toEqual([`/queue/${long}`]);
    expect(tree.removeSubtree(`/queue/${long}`).map((e) => e.path)).toEqual([
      `/queue/${long}/é-ü-€-long-unicode-name`,
      `/queue/${long}`,
    ]);
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
