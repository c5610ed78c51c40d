/**
 * Helpers of the cache tests: a fresh read of a server subtree and the same view of a cache, so a test can
 * say "the cache equals the server's tree" with one `expect`.
 */
import { eventually, parseWatchesByPath } from '@zkwire/testing';
import type { CacheEvent } from '../src/cache/cache-events.js';
import { childPath } from '../src/cache/cache-tree.js';
import type { CuratorCache } from '../src/cache/curator-cache.js';
import type { TestClient } from './helpers.js';

/** What the comparison looks at per node: identity (czxid), data version and bytes. */
export type NodeView = { czxid: bigint; version: number; data: string | null };

/** A fresh read of `root`'s subtree (every node), keyed by path; empty when the root is absent. */
export async function readServerTree(client: TestClient, root: string): Promise<Map<string, NodeView>> {
  const out = new Map<string, NodeView>();
  const visit = async (path: string): Promise<void> => {
    let read: Awaited<ReturnType<TestClient['getData']>>;
    let names: string[];
    try {
      [read, names] = await Promise.all([client.getData(path), client.getChildren(path)]);
    } catch (error) {
      if ((error as { code?: string }).code === 'NONODE') return;
      throw error;
    }
    out.set(path, { czxid: read.stat.czxid, version: read.stat.version, data: hex(read.data) });
    await Promise.all(names.map((name) => visit(childPath(path, name))));
  };
  await visit(root);
  return sorted(out);
}

/** The cache's content in the same shape. */
export function cacheView(cache: CuratorCache, withData = true): Map<string, NodeView> {
  const out = new Map<string, NodeView>();
  for (const entry of cache) {
    out.set(entry.path, {
      czxid: entry.stat.czxid,
      version: entry.stat.version,
      data: withData ? hex(entry.data) : null,
    });
  }
  return sorted(out);
}

/** Waits until the cache equals a fresh read of the server (the server read again each try). */
export async function expectCacheEqualsServer(
  cache: CuratorCache,
  client: TestClient,
  timeoutMs = 10_000,
): Promise<void> {
  let last = '';
  try {
    await eventually(
      async () => {
        await client.sync(cache.path).catch(() => {});
        const server = await readServerTree(client, cache.path);
        const local = cacheView(cache);
        last = `server ${show(server)}\ncache  ${show(local)}`;
        return show(server) === show(local);
      },
      { timeoutMs },
    );
  } catch {
    throw new Error(`cache never matched the server:\n${last}`);
  }
}

/** One line per event, for multiset comparisons: `created /a`, `changed /a`, `deleted /a`. */
export function eventLine(event: CacheEvent): string {
  return event.type === 'initialized' ? 'initialized' : `${event.type} ${event.path}`;
}

/** Records every event of a cache as lines. */
export function recordEvents(cache: CuratorCache): string[] {
  const lines: string[] = [];
  cache.on('event', (event) => lines.push(eventLine(event)));
  cache.on('initialized', () => lines.push('initialized'));
  return lines;
}

function hex(data: Uint8Array | null): string | null {
  return data === null ? null : Buffer.from(data).toString('hex');
}

function sorted(map: Map<string, NodeView>): Map<string, NodeView> {
  return new Map([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function show(map: Map<string, NodeView>): string {
  return JSON.stringify([...map].map(([path, v]) => [path, String(v.czxid), v.version, v.data]));
}

/** The paths where the server holds a watch for `sessionId` (from the `wchp` four-letter word). */
export async function serverWatchedPaths(
  server: { fourLetterWord(command: string): Promise<string> },
  sessionId: bigint,
): Promise<string[]> {
  const session = `0x${sessionId.toString(16)}`;
  return [...parseWatchesByPath(await server.fourLetterWord('wchp'))]
    .filter(([, sessions]) => sessions.includes(session))
    .map(([path]) => path);
}
