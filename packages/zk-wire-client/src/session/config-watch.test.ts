import { describe, expect, it } from 'vitest';
import { CONFIG_WATCH_KEY, isConfigNodeNotification, watchKeyToServer } from '../protocol/config-watch.js';
import { WatchTables } from '../protocol/watches.js';
import { Chroot } from '../util/paths.js';
import type { WatchEvent } from '../util/types.js';
import { expiryEvents, notificationEvent, notifiedWatchers } from './watches.js';

/** A notification frame as the server sends it: reply header (xid -1), then WatcherEvent {type, state, path}. */
function notification(type: number, serverPath: string): Buffer {
  const path = Buffer.from(serverPath, 'utf8');
  const frame = Buffer.alloc(16 + 12 + path.length);
  frame.writeInt32BE(-1, 0);
  frame.writeBigInt64BE(-1n, 4);
  frame.writeInt32BE(type, 16);
  frame.writeInt32BE(3, 20); // SyncConnected
  frame.writeInt32BE(path.length, 24);
  path.copy(frame, 28);
  return frame;
}
const DATA_CHANGED = 3;

/** What each named watcher is told for one notification. */
function deliver(chroot: Chroot, tables: WatchTables, payload: Buffer, names: Map<unknown, string>) {
  const event = notificationEvent(payload, chroot)!;
  const told: [string, WatchEvent][] = [];
  for (const [watchers, e] of notifiedWatchers(tables, event, payload, chroot)) {
    for (const w of watchers) told.push([names.get(w)!, e]);
  }
  return told.sort(([a], [b]) => a.localeCompare(b));
}

describe('the config watch under a chroot', () => {
  const configWatcher = () => {};
  const nodeWatcher = () => {};
  const rootRecursive = () => {};
  const names = new Map<unknown, string>([
    [configWatcher, 'config'],
    [nodeWatcher, 'node'],
    [rootRecursive, 'recursive'],
  ]);

  it('under /app: the config node goes to the config watch only, /app/zookeeper/config to the node watch only', () => {
    const chroot = new Chroot('/app');
    const tables = new WatchTables();
    tables.add('data', CONFIG_WATCH_KEY, configWatcher);
    tables.add('data', '/zookeeper/config', nodeWatcher); // the client path of /app/zookeeper/config
    tables.add('persistentRecursive', '/', rootRecursive); // /app and below, not /zookeeper/config
    expect(deliver(chroot, tables, notification(DATA_CHANGED, '/zookeeper/config'), names)).toEqual([
      ['config', { type: 'dataChanged', path: '/zookeeper/config' }],
    ]);
    expect(deliver(chroot, tables, notification(DATA_CHANGED, '/app/zookeeper/config'), names)).toEqual([
      ['node', { type: 'dataChanged', path: '/zookeeper/config' }],
      ['recursive', { type: 'dataChanged', path: '/zookeeper/config' }],
    ]);
    // One-shot: both are gone now; the recursive one stays.
    expect(tables.snapshot().data).toEqual([]);
  });

  it('under /zookeeper: the config node is also the client path /config, and both watchers are told', () => {
    const chroot = new Chroot('/zookeeper');
    const tables = new WatchTables();
    tables.add('data', CONFIG_WATCH_KEY, configWatcher);
    tables.add('data', '/config', nodeWatcher);
    expect(deliver(chroot, tables, notification(DATA_CHANGED, '/zookeeper/config'), names)).toEqual([
      ['config', { type: 'dataChanged', path: '/zookeeper/config' }],
      ['node', { type: 'dataChanged', path: '/config' }],
    ]);
  });

  it('without a chroot the config watch is an ordinary watch at /zookeeper/config', () => {
    const chroot = new Chroot(undefined);
    const tables = new WatchTables();
    tables.add('data', '/zookeeper/config', configWatcher);
    expect(deliver(chroot, tables, notification(DATA_CHANGED, '/zookeeper/config'), names)).toEqual([
      ['config', { type: 'dataChanged', path: '/zookeeper/config' }],
    ]);
  });

  it('is restored as /zookeeper/config, and expires as /zookeeper/config', () => {
    const chroot = new Chroot('/app');
    expect(watchKeyToServer(chroot, CONFIG_WATCH_KEY)).toBe('/zookeeper/config');
    expect(watchKeyToServer(chroot, '/zookeeper/config')).toBe('/app/zookeeper/config');
    const tables = new WatchTables();
    tables.add('data', CONFIG_WATCH_KEY, configWatcher);
    expect(expiryEvents(tables).map(([, event]) => event)).toEqual([
      { type: 'sessionExpired', path: '/zookeeper/config' },
    ]);
  });

  it('recognises the config node in a frame by its bytes only', () => {
    expect(isConfigNodeNotification(notification(DATA_CHANGED, '/zookeeper/config'))).toBe(true);
    expect(isConfigNodeNotification(notification(DATA_CHANGED, '/zookeeper/confih'))).toBe(false);
    expect(isConfigNodeNotification(notification(DATA_CHANGED, '/app/zookeeper/config'))).toBe(false);
    expect(isConfigNodeNotification(Buffer.alloc(20))).toBe(false);
  });
});
