/**
 * Seeded random scripts: one session, a small tree under /n, every kind of call. The same seed gives the
 * same script, so a failure prints its seed and `ZKWIRE_CONFORMANCE_SEEDS=<seed>` replays it.
 *
 * Watches are placed so that the server bug ZOOKEEPER-4466 (one watch mode per path, 3.6 to 3.8) cannot
 * decide the outcome: one-shot watches never go on a path that has a persistent watch (/n/b) or a recursive
 * one (/n/a), except in the `oneShotOnPersistent` shape, played from 3.9 on, whose server keeps every mode.
 */
import { seededRandom } from '@zkwire/testing';
import type { CreateModeName, MultiOp, Op, Script, SessionOp } from './script.js';

const NODES = ['/n/a', '/n/b', '/n/a/x', '/n/b/y', '/n/c'];
const ONE_SHOT_PATHS = ['/n', '/n/a/x', '/n/b/y', '/n/c'];
// No containers: the server deletes an empty one on its own clock (znode.container.checkIntervalMs), so when
// its events come would depend on timing, not on the client. The coverage scripts create them.
const MODES: CreateModeName[] = [
  'persistent',
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
];

/** How a random script is laid out. */
export interface RandomShape {
  /** Batches of 2 to 8 ops issued in one tick, instead of one op at a time. */
  pipelined: boolean;
  /** Two sessions instead of one: each batch belongs to one of them, picked at random. */
  twoSessions?: boolean;
  /** The sessions connect with a chroot ('/root') instead of none. */
  chroot?: boolean;
  /** One-shot watches on the persistently and recursively watched paths too (a 3.9 script). */
  oneShotOnPersistent?: boolean;
}

/** A random script of `length` ops. */
export function randomScript(seed: number, length: number, shape: RandomShape): Script {
  const { pipelined, twoSessions = false, chroot = false, oneShotOnPersistent = false } = shape;
  const oneShotPaths = oneShotOnPersistent ? [...ONE_SHOT_PATHS, '/n/a', '/n/b'] : ONE_SHOT_PATHS;
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const chance = (p: number) => random() < p;
  const version = () => (chance(0.6) ? undefined : Math.floor(random() * 3));
  const data = () => pick(['', 'a', 'bb', 'ccc']);
  const oneShot = () => (chance(0.5) ? pick(['w1', 'w2']) : undefined);

  const write = (): MultiOp => {
    const path = pick(NODES);
    switch (pick(['create', 'create', 'delete', 'setData', 'check'] as const)) {
      case 'create': {
        const mode = pick(MODES);
        return { type: 'create', path: mode.endsWith('sequential') ? `${path}-` : path, data: data(), mode };
      }
      case 'delete':
        return { type: 'delete', path, version: version() };
      case 'setData':
        return { type: 'setData', path, data: data(), version: version() };
      case 'check':
        return { type: 'check', path, version: Math.floor(random() * 3) };
    }
  };

  const one = (): Op => {
    const path = pick(NODES);
    const watchPath = pick(oneShotPaths);
    switch (
      pick([
        'create',
        'create',
        'create',
        'delete',
        'delete',
        'setData',
        'setData',
        'exists',
        'getData',
        'getChildren',
        'getChildren2',
        'getAllChildrenNumber',
        'getEphemerals',
        'sync',
        'multi',
        'multiRead',
        'addWatch',
        'removeWatches',
        'checkWatches',
      ] as const)
    ) {
      case 'create': {
        const mode = pick(MODES);
        const target = mode.endsWith('sequential') ? `${path}-` : path;
        return { op: 'create', path: target, data: data(), mode, stat: chance(0.3) };
      }
      case 'delete':
        return { op: 'delete', path, version: version() };
      case 'setData':
        return { op: 'setData', path, data: data(), version: version() };
      case 'exists':
      case 'getData':
      case 'getChildren':
      case 'getChildren2': {
        const op = pick(['exists', 'getData', 'getChildren', 'getChildren2'] as const);
        return { op, path: watchPath, watch: oneShot() };
      }
      case 'getAllChildrenNumber':
        return { op: 'getAllChildrenNumber', path: pick(['/n', ...NODES]) };
      case 'getEphemerals':
        return { op: 'getEphemerals', path: pick(['/n', '/n/a', '/n/b']) };
      case 'sync':
        return { op: 'sync', path: pick(['/n', ...NODES]) };
      case 'multi':
        return { op: 'multi', ops: Array.from({ length: 1 + Math.floor(random() * 3) }, write) };
      case 'multiRead':
        return {
          op: 'multiRead',
          ops: Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
            type: pick(['getData', 'getChildren'] as const),
            path: pick(['/n', ...NODES]),
          })),
        };
      case 'addWatch':
        return chance(0.5)
          ? { op: 'addWatch', path: '/n/b', mode: 'persistent', watch: 'p' }
          : { op: 'addWatch', path: '/n/a', mode: 'persistent-recursive', watch: 'r' };
      case 'removeWatches': {
        const target = pick(['/n/b', '/n/a', ...ONE_SHOT_PATHS]);
        const persistentOne = target === '/n/b' ? 'p' : target === '/n/a' ? 'r' : undefined;
        const watch =
          persistentOne === undefined
            ? oneShot()
            : oneShotOnPersistent
              ? pick([persistentOne, undefined, 'w1', 'w2'])
              : pick([persistentOne, undefined]);
        return { op: 'removeWatches', path: target, type: pick(['data', 'children', 'any'] as const), watch };
      }
      case 'checkWatches':
        return {
          op: 'checkWatches',
          path: pick(oneShotPaths),
          type: pick(['data', 'children', 'any'] as const),
        };
    }
  };

  const ops = Array.from({ length }, one);
  const batches: SessionOp[][] = [[{ op: 'create', path: '/n' }]];
  for (let k = 0; k < ops.length; ) {
    const size = pipelined ? 2 + Math.floor(random() * 7) : 1;
    const session = twoSessions && chance(0.5) ? 1 : 0;
    batches.push(ops.slice(k, k + size).map((op) => ({ ...op, session })));
    k += size;
  }
  const root = chroot ? '/root' : null;
  const kind = [
    pipelined ? 'pipelined' : 'awaited',
    twoSessions ? 'two sessions' : '',
    chroot ? 'chroot' : '',
    oneShotOnPersistent ? 'one-shot on persistent paths' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    name: `random ${kind} (seed ${seed})`,
    sessions: twoSessions ? [root, root] : [root],
    batches,
    seed,
    ...(oneShotOnPersistent ? { since: '3.9.0' } : {}),
  };
}
