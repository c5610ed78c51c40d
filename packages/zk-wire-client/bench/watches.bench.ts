/**
 * The watch tables' hot path: a one-shot watcher registered (as a read's settle step does), then fired by
 * its event (as a notification collects it), at one path and across 1,000 paths; and an event that reaches
 * no watcher, which every notification of an unwatched path pays.
 * Run: `npm run bench:micro`.
 */
import { bench, describe } from 'vitest';
import { WatchTables } from '../src/protocol/watches.js';
import type { WatchEvent, Watcher } from '../src/util/types.js';

const options = { time: 300 };
/** Keeps every result alive, so that the JIT cannot drop the work. */
export let sink: unknown;

const watcher: Watcher = () => {};
const other: Watcher = () => {};
const paths = Array.from({ length: 1000 }, (_, i) => `/bench/node-${String(i).padStart(4, '0')}`);
const changed: WatchEvent[] = paths.map((path) => ({ type: 'dataChanged', path }));

describe('register + fire a one-shot data watch', () => {
  const tables = new WatchTables();
  const event = changed[0]!;
  bench(
    'one watcher at one path',
    () => {
      tables.add('data', event.path, watcher);
      sink = tables.collect(event);
    },
    options,
  );

  const shared = new WatchTables();
  bench(
    'two watchers at one path',
    () => {
      shared.add('data', event.path, watcher);
      shared.add('data', event.path, other);
      sink = shared.collect(event);
    },
    options,
  );

  const wide = new WatchTables();
  bench(
    '1,000 paths, each registered then fired',
    () => {
      for (const e of changed) wide.add('data', e.path, watcher);
      for (const e of changed) sink = wide.collect(e);
    },
    options,
  );
});

describe('fire an event no watcher waits for', () => {
  const tables = new WatchTables();
  for (const path of paths.slice(1)) tables.add('data', path, watcher);
  const unwatched: WatchEvent = { type: 'dataChanged', path: paths[0]! };
  bench(
    '999 other paths watched',
    () => {
      sink = tables.collect(unwatched);
    },
    options,
  );
});
