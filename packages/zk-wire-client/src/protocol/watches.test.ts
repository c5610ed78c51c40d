import { describe, expect, it } from 'vitest';
import type { WatchEvent, Watcher } from '../util/types.js';
import { WatchTables } from './watches.js';

const w = (): Watcher => () => {};

describe('watch tables', () => {
  it('dispatches per event type and removes one-shot watchers', () => {
    const tables = new WatchTables();
    const data = w();
    const exist = w();
    const child = w();
    tables.add('data', '/a', data);
    tables.add('exist', '/b', exist);
    tables.add('child', '/a', child);
    expect([...tables.collect({ type: 'childrenChanged', path: '/a' })]).toEqual([child]);
    expect([...tables.collect({ type: 'childrenChanged', path: '/a' })]).toEqual([]);
    expect([...tables.collect({ type: 'created', path: '/b' })]).toEqual([exist]);
    expect([...tables.collect({ type: 'dataChanged', path: '/a' })]).toEqual([data]);
    expect(tables.isEmpty).toBe(true);
  });

  it('deleted reaches data, exist and child watchers, each watcher once', () => {
    const tables = new WatchTables();
    const shared = w();
    const other = w();
    tables.add('data', '/a', shared);
    tables.add('child', '/a', shared);
    tables.add('child', '/a', other);
    expect([...tables.collect({ type: 'deleted', path: '/a' })]).toEqual([shared, other]);
  });

  it('persistent watchers stay; recursive ones cover descendants but never childrenChanged', () => {
    const tables = new WatchTables();
    const persistent = w();
    const recursive = w();
    const rootRecursive = w();
    tables.add('persistent', '/p', persistent);
    tables.add('persistentRecursive', '/p', recursive);
    tables.add('persistentRecursive', '/', rootRecursive);
    const event = (type: WatchEvent['type'], path: string) => [...tables.collect({ type, path })];
    expect(event('childrenChanged', '/p')).toEqual([persistent]);
    expect(event('dataChanged', '/p')).toEqual([persistent, recursive, rootRecursive]);
    expect(event('created', '/p/x/y')).toEqual([recursive, rootRecursive]);
    expect(event('created', '/q')).toEqual([rootRecursive]);
    expect(tables.hasPersistent).toBe(true);
  });

  it('removes by type and by watcher, and reports what was removed', () => {
    const tables = new WatchTables();
    const a = w();
    const b = w();
    tables.add('data', '/a', a);
    tables.add('exist', '/a', b);
    tables.add('child', '/a', a);
    expect(tables.has('/a', 'data', b)).toBe(true);
    expect(tables.remove('/a', 'data', a)).toEqual([{ kind: 'data', watcher: a }]);
    expect(tables.has('/a', 'children', a)).toBe(true);
    expect(tables.remove('/a', 'any')).toEqual([
      { kind: 'exist', watcher: b },
      { kind: 'child', watcher: a },
    ]);
    expect(tables.isEmpty).toBe(true);
  });

  it('snapshots the paths of each table for SetWatches', () => {
    const tables = new WatchTables();
    tables.add('data', '/d', w());
    tables.add('exist', '/e', w());
    tables.add('persistentRecursive', '/r', w());
    expect(tables.snapshot()).toEqual({
      data: ['/d'],
      exist: ['/e'],
      child: [],
      persistent: [],
      persistentRecursive: ['/r'],
    });
  });

  it('keeps one watcher per path without a set, and a set once a second one joins', () => {
    const tables = new WatchTables();
    const a = w();
    const b = w();
    tables.add('data', '/p', a);
    tables.add('data', '/p', a);
    expect(tables.watchersAt('data', '/p')).toEqual([a]);
    expect(tables.has('/p', 'data', b)).toBe(false);
    tables.add('data', '/p', b);
    expect(tables.watchersAt('data', '/p')).toEqual([a, b]);
    expect(tables.remove('/p', 'data', a)).toEqual([{ kind: 'data', watcher: a }]);
    expect(tables.has('/p', 'data', a)).toBe(false);
    expect(tables.has('/p', 'data')).toBe(true);
    expect(tables.remove('/p', 'data', a)).toEqual([]);
    expect([...tables.collect({ type: 'dataChanged', path: '/p' })]).toEqual([b]);
    expect(tables.isEmpty).toBe(true);
    tables.add('child', '/q', a);
    expect(tables.remove('/q', 'children', b)).toEqual([]);
    expect(tables.remove('/q', 'children', a)).toEqual([{ kind: 'child', watcher: a }]);
    expect(tables.isEmpty).toBe(true);
  });
});
