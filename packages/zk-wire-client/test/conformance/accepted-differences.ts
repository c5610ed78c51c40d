/**
 * THE reviewed list of accepted differences between our client and the Java client of the server's release in
 * the conformance test. Every entry says why the difference is legitimate and, where it is not every release,
 * the releases it applies to (`releases`: of the Java client or of the server, whichever's behaviour it is
 * about); everything not listed here is compared exactly. docs/contracts.md ("Differences from the Java client
 * (conformance test)") carries the same list: change both together. The entries that apply to the run's
 * release run in this order over each session's raw stream (stream.ts).
 */
import {
  type AcceptedDifference,
  key,
  mapStats,
  mapStrings,
  mapValues,
  type NormalEntry,
  REMOVED_EVENTS,
  recursiveOnly,
  STAT_TIMES,
  stripPrefix,
} from './difference-helpers.js';

import type { Entry } from './stream.js';

export type { AcceptedDifference, NormalEntry, NormalizeContext } from './difference-helpers.js';

export const ACCEPTED_DIFFERENCES: readonly AcceptedDifference[] = [
  {
    id: 'getEphemerals-chroot',
    releases: { of: 'Java client', from: '3.6.0' },
    side: 'java',
    why:
      "Java's getEphemerals neither adds the chroot to its prefix nor removes it from the paths it returns " +
      '(ZooKeeper.getEphemerals sends the prefix as given); ours takes and returns client paths. Under a ' +
      'chroot the Java driver is given chroot + prefix, and the chroot is removed from its results here.',
    apply: (stream, c) =>
      c.chroot === null
        ? stream
        : mapValues(stream, (v, e) =>
            e.kind === 'result' && e.op === 'getEphemerals'
              ? mapStrings(v, stripPrefix(`${c.base}${c.chroot}`))
              : v,
          ),
  },
  {
    id: 'base-path',
    side: 'both',
    why:
      'Each side runs under its own fresh base path so that the runs do not collide; the base is removed from ' +
      'every path in results and events.',
    apply: (stream, c) => mapValues(stream, (v) => mapStrings(v, stripPrefix(c.base))),
  },
  {
    id: 'zxids-and-times',
    side: 'both',
    why:
      "A Stat's czxid, mzxid, pzxid, ctime and mtime depend on when each side ran, not on the client; the " +
      'versions, lengths, child counts and owner are compared.',
    apply: (stream) =>
      mapValues(stream, (v) =>
        mapStats(v, (stat) => Object.fromEntries(Object.entries(stat).filter(([k]) => !STAT_TIMES.has(k)))),
      ),
  },
  {
    id: 'event-zxids',
    side: 'both',
    releases: { of: 'Java client', from: '3.9.0' },
    why:
      "An event's zxid (ZOOKEEPER-4655, sent by 3.9+ servers) depends on when each side ran: compared as " +
      "present or absent. Java's WatchedEvent.getZxid() is -1 (NO_ZXID) for an event without one (the " +
      '*WatchRemoved events the client makes itself); ours leaves zxid out.',
    apply: (stream) =>
      stream.map((e): NormalEntry => {
        if (e.kind !== 'event' || e.zxid === undefined) return e;
        const { zxid, ...rest } = e;
        return zxid === '-1' ? rest : { ...rest, zxid: 'present' };
      }),
  },
  {
    id: 'session-ids',
    side: 'both',
    why:
      "ephemeralOwner is a session id, different for every session: compared as 'none' (0) or 'session' " +
      '(TTL nodes and containers show 0, for both clients).',
    apply: (stream) =>
      mapValues(stream, (v) =>
        mapStats(v, (stat) => ({
          ...stat,
          ephemeralOwner: stat.ephemeralOwner === '0' ? 'none' : 'session',
        })),
      ),
  },
  {
    id: 'unordered-lists',
    side: 'both',
    why:
      "getChildren and getEphemerals lists come in the server's hash order, which depends on the full paths " +
      '(each side has its own base): they are compared as sorted lists. Neither API promises an order.',
    apply: (stream) =>
      mapValues(stream, (v, e) => {
        if (e.kind !== 'result') return v;
        const sortChildren = (x: unknown): unknown => {
          if (Array.isArray(x)) return x.map(sortChildren);
          if (x !== null && typeof x === 'object') {
            const o = x as Record<string, unknown>;
            return Array.isArray(o.children) ? { ...o, children: [...(o.children as string[])].sort() } : o;
          }
          return x;
        };
        if ((e.op === 'getChildren' || e.op === 'getEphemerals') && Array.isArray(v)) {
          return [...(v as string[])].sort();
        }
        return sortChildren(v);
      }),
  },
  {
    id: 'exists-missing-node',
    side: 'java',
    why:
      "Documented API difference: for a missing node Java's exists calls back NONODE with a null Stat; ours " +
      'resolves null. Both arm the same exist watch.',
    apply: (stream) =>
      stream.map((e) =>
        e.kind === 'error' && e.op === 'exists' && e.code === 'NONODE'
          ? { kind: 'result', step: e.step, op: e.op, value: null }
          : e,
      ),
  },
  {
    id: 'empty-acl',
    side: 'java',
    why:
      'An empty ACL list: Java sends it and the server answers INVALIDACL; ours refuses it before sending ' +
      '(InvalidArgumentError: bad input is refused before anything is sent). Compared as an argument error.',
    apply: (stream, c) =>
      stream.map((e): NormalEntry => {
        const op = e.kind === 'error' ? c.opOf(e.step) : undefined;
        const empty =
          (op?.op === 'setACL' || op?.op === 'create') && op.acl !== undefined && op.acl.length === 0;
        return e.kind === 'error' && e.code === 'INVALIDACL' && empty
          ? { kind: 'error', step: e.step, op: e.op, code: 'IllegalArgumentException', synchronous: true }
          : e;
      }),
  },
  {
    id: 'multi-create-path-chroot',
    side: 'java',
    why:
      "Java's async multi (3.5 to 3.9) passes the paths of created nodes through without removing the chroot (its " +
      "create callback removes it); ours returns client paths everywhere. The chroot is removed from Java's " +
      'multi create results here.',
    apply: (stream, c) =>
      c.chroot === null
        ? stream
        : mapValues(stream, (v, e) =>
            e.kind === 'result' && e.op === 'multi'
              ? (v as { type: string; path?: string }[]).map((r) =>
                  r.type === 'create' && r.path !== undefined
                    ? { ...r, path: stripPrefix(c.chroot as string)(r.path) }
                    : r,
                )
              : v,
          ),
  },
  {
    id: 'argument-errors',
    side: 'both',
    why:
      'Bad arguments (paths, TTLs, modes) never reach the server on either side, but are reported differently: ' +
      "Java throws IllegalArgumentException from the call (its multi calls back BADARGUMENTS on the caller's " +
      'thread), ours rejects with InvalidArgumentError. Both become INVALID_ARGUMENT; their position among the ' +
      "results is not compared, since Java's comes on another thread than its callbacks.",
    apply: (stream) =>
      stream.map((e): NormalEntry => {
        if (e.kind !== 'error') return e;
        const java =
          e.code === 'IllegalArgumentException' || (e.synchronous === true && e.code === 'BADARGUMENTS');
        if (!java && !e.argument) return e;
        return { kind: 'error', step: e.step, op: e.op, code: 'INVALID_ARGUMENT', unordered: true };
      }),
  },
  {
    id: 'addAuth-has-no-callback',
    side: 'both',
    why:
      "Java's addAuthInfo has no callback (the auth packet takes its place in the queue, a refusal closes the " +
      'handle); ours returns a promise. Its result is compared outside the ordered stream.',
    apply: (stream) =>
      stream.map((e): NormalEntry => {
        if ((e.kind === 'result' || e.kind === 'error') && e.op === 'addAuth') {
          const { synchronous: _s, ...rest } = e as Entry & { synchronous?: boolean };
          return { ...(rest as Entry), unordered: true };
        }
        return e;
      }),
  },
  {
    id: 'multiRead-callback-code',
    releases: { of: 'Java client', from: '3.6.0' },
    side: 'java',
    why:
      "Java's MultiCallback gives a read-only multi the first per-op error as its rc, with every op's result in " +
      'the list; ours resolves with the per-op results (each a value or its error). The list is compared, the ' +
      'rc dropped.',
    apply: (stream) =>
      stream.map((e) => {
        if (e.kind !== 'result' || e.op !== 'multiRead') return e;
        const { rc: _rc, ...rest } = e as Entry & { rc?: string };
        return rest as Entry;
      }),
  },
  {
    id: 'one-notification-order',
    side: 'both',
    why:
      'Java hands one notification to its watchers from a HashSet (ZKWatchManager.materialize), and the ' +
      '*WatchRemoved events of one removal from a HashMap of watcher sets: in no defined order. So each run ' +
      'of consecutive events with the same type and path, and each run of consecutive *WatchRemoved events, ' +
      'is compared sorted. Their place among the results is still compared.',
    apply: (stream) => {
      const group = (e: NormalEntry) =>
        e.kind !== 'event' ? undefined : REMOVED_EVENTS.has(e.type) ? 'removed' : `${e.type} ${e.path}`;
      const out: NormalEntry[] = [];
      let run: NormalEntry[] = [];
      const flush = () => {
        out.push(...run.sort((a, b) => key(a).localeCompare(key(b))));
        run = [];
      };
      for (const e of stream) {
        const g = group(e);
        if (run.length > 0 && (g === undefined || g !== group(run[0] as NormalEntry))) flush();
        if (g === undefined) out.push(e);
        else run.push(e);
      }
      flush();
      return out;
    },
  },
  {
    id: 'ZOOKEEPER-4475',
    releases: { of: 'Java client', from: '3.6.0', before: '3.9.0' },
    side: 'java',
    why:
      'Java client bug ZOOKEEPER-4475 (3.6 to 3.8, fixed in 3.9): the client hands every event under a persistent-recursive ' +
      'watch to its watcher, including NodeChildrenChanged events the server sent for a one-shot child watch ' +
      'on a node below. Recursive watches never get childrenChanged (AddWatchMode docs); ours does not copy ' +
      'the bug. Such events are dropped from the Java stream for watchers used only for recursive watches.',
    apply: (stream, c) => {
      const recursive = recursiveOnly(c.script, c.session);
      return stream.filter(
        (e) => !(e.kind === 'event' && e.type === 'childrenChanged' && recursive.has(e.watcher)),
      );
    },
  },
  {
    id: 'ZOOKEEPER-4466',
    releases: { of: 'server', from: '3.6.0', before: '3.9.0' },
    side: 'both',
    why:
      'Server bug ZOOKEEPER-4466 (3.6 to 3.8, fixed in 3.9, which keeps every mode): the server keeps one watch mode per path and ' +
      'connection, so a one-shot data or exist watch armed on a path with a persistent watch turns it into a ' +
      'one-shot one. ' +
      'Java arms it anyway and its persistent watcher goes silent after the next event there; ours does not arm ' +
      'a server watch the persistent one already covers, so its persistent watcher keeps going. Events of a ' +
      "persistent watcher at that path after that first event are dropped from both streams (Java's has none).",
    apply: (stream, c) => {
      const persistent = new Map<string, Set<string>>(); // path -> persistent watchers
      const degraded = new Set<string>();
      const dead = new Set<string>();
      let firing: string | undefined;
      const out: NormalEntry[] = [];
      for (const e of stream) {
        if (firing !== undefined && !(e.kind === 'event' && e.path === firing)) {
          dead.add(firing);
          firing = undefined;
        }
        if (e.kind === 'result') {
          const op = c.opOf(e.step);
          if (op?.op === 'addWatch' && op.mode === 'persistent') {
            persistent.set(op.path, (persistent.get(op.path) ?? new Set()).add(op.watch));
            dead.delete(op.path);
          } else if (
            op !== undefined &&
            (op.op === 'getData' || op.op === 'exists') &&
            op.watch !== undefined &&
            persistent.has(op.path)
          ) {
            degraded.add(op.path);
          }
        }
        if (e.kind === 'event' && !REMOVED_EVENTS.has(e.type)) {
          if (dead.has(e.path) && persistent.get(e.path)?.has(e.watcher) && e.type !== 'childrenChanged')
            continue;
          if (degraded.has(e.path) && e.type !== 'childrenChanged') {
            degraded.delete(e.path);
            firing = e.path;
          }
        }
        out.push(e);
      }
      return out;
    },
  },
  {
    id: 'ZOOKEEPER-4472',
    releases: { of: 'Java client', from: '3.6.0', before: '3.9.0' },
    side: 'both',
    why:
      'The Java client before 3.9 has no watcher type for persistent watches (ZOOKEEPER-4472, with ZOOKEEPER-4471; 3.9 adds ' +
      'WatcherType.Persistent and PersistentRecursive): removeAllWatches(path, Children or Data) is sent, the ' +
      'server drops that half of a persistent ' +
      '(or, for Data, persistent-recursive) watch of the path, and the client then reports NOWATCHER because ' +
      'no one-shot watcher of the type was there; the persistent watcher silently stops getting those events. ' +
      'Ours answers NOWATCHER without sending and keeps the persistent watch whole. After such a removal the ' +
      "events of the removed half are dropped from both streams (Java's has none).",
    apply: (stream, c) => {
      const persistent = new Map<string, Set<string>>(); // path -> persistent watchers
      const recursive = new Map<string, Set<string>>(); // path -> recursive watchers
      const deadChild = new Set<string>();
      const deadData = new Set<string>();
      const deadRecursive = new Set<string>();
      const add = (m: Map<string, Set<string>>, path: string, w: string) =>
        m.set(path, (m.get(path) ?? new Set()).add(w));
      return stream.filter((e) => {
        if (e.kind === 'result' || e.kind === 'error') {
          const op = c.opOf(e.step);
          if (op?.op === 'addWatch' && e.kind === 'result') {
            add(op.mode === 'persistent' ? persistent : recursive, op.path, op.watch);
            for (const set of [deadChild, deadData, deadRecursive]) set.delete(op.path);
          }
          if (
            op?.op === 'removeWatches' &&
            op.watch === undefined &&
            e.kind === 'error' &&
            e.code === 'NOWATCHER'
          ) {
            if (op.type === 'children' && persistent.has(op.path)) deadChild.add(op.path);
            if (op.type === 'data' && persistent.has(op.path)) deadData.add(op.path);
            if (op.type === 'data' && recursive.has(op.path)) deadRecursive.add(op.path);
          }
          return true;
        }
        if (e.kind !== 'event' || REMOVED_EVENTS.has(e.type)) return true;
        if (persistent.get(e.path)?.has(e.watcher)) {
          const childGone = deadChild.has(e.path);
          const dataGone = deadData.has(e.path);
          if (e.type === 'childrenChanged' && childGone) return false;
          if ((e.type === 'dataChanged' || e.type === 'created') && dataGone) return false;
          if (e.type === 'deleted' && childGone && dataGone) return false;
        }
        for (const [path, watchers] of recursive) {
          const under = e.path === path || e.path.startsWith(path === '/' ? '/' : `${path}/`);
          if (under && watchers.has(e.watcher) && deadRecursive.has(path)) return false;
        }
        return true;
      });
    },
  },
  {
    id: 'removed-watcher-server-watch',
    side: 'both',
    why:
      "Java's removeWatches(path, watcher, type, local) always sends the checkWatches opcode (its answer to " +
      'ZOOKEEPER-1910), so the server keeps its watch after the last local watcher is gone; ours sends ' +
      'removeWatches when no local watcher still needs the server watch, and checkWatches otherwise. Only a ' +
      'later checkWatches without a watcher (no public Java API; the driver queues the opcode) can see ' +
      'the difference: on a path where a watcher was removed before, its result is not compared (its place is).',
    apply: (stream, c) => {
      const touched = new Set<string>();
      return stream.map((e): NormalEntry => {
        if (e.kind === 'event') return e;
        const op = c.opOf(e.step);
        if (op?.op === 'removeWatches' && op.watch !== undefined && e.kind === 'result') touched.add(op.path);
        if (op?.op === 'checkWatches' && touched.has(op.path)) {
          return { kind: 'result', step: e.step, op: e.op, value: 'not compared' };
        }
        return e;
      });
    },
  },
];
