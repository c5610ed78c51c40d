/**
 * The names of a getChildren reply, reusing the strings of the last reply for the same path when its bytes
 * are the same.
 *
 * Why: a list of 1,000 names is 1,000 strings (names under 13 characters cannot share the reply's text, so
 * each is a copy), and the promise that carries them has usually outlived a young-generation GC by the time
 * its reply lands (a request waits behind hundreds of others). V8 then treats the dead promise as a root:
 * every fresh name is copied into the old generation and freed only by a full GC, which is most of a long
 * getChildren's client CPU. Lists are read again and again unchanged (locks, elections, queues, caches
 * re-listing after a watch), so when the name bytes equal the last reply's for that path, the strings
 * already made are handed out again, in a fresh array. Strings are values: which
 * copy a caller gets is not observable, and a byte-for-byte comparison makes a wrong name impossible.
 *
 * The memo is bounded: lists of {@link MIN_NAMES} names or more (a short list costs little to decode) and of
 * at most {@link MAX_ENTRY_BYTES} bytes, {@link MAX_ENTRIES} lists and {@link MAX_TOTAL_BYTES} in all, the
 * least recently used dropped first. The getChildren decoders use one memo shared by the clients of a
 * process, {@link sharedChildNames}: correctness rests on the bytes, not on which server or session sent
 * them, and one bound for the process keeps 10,000 sessions from holding 10,000 memos.
 */
import { Buffer } from 'node:buffer';
import { fast } from '@zkwire/jute-codec';

/** Shortest list worth keeping. */
export const MIN_NAMES = 32;
/** Most lists kept. */
export const MAX_ENTRIES = 64;
/** Largest reply body (the encoded names) worth keeping: about 8,000 names of 12 characters. */
export const MAX_ENTRY_BYTES = 128 * 1024;
/** Total reply bytes kept over all paths (the strings kept are about twice that in heap). */
export const MAX_TOTAL_BYTES = 512 * 1024;

interface MemoEntry {
  /** A copy of the reply body the names were decoded from. */
  readonly bytes: Buffer;
  /** The names, never handed out themselves (a caller may sort or change its array). */
  readonly names: readonly string[];
}

/** Name lists by path, bounded as above. */
export class ChildNamesMemo {
  private readonly memo = new Map<string, MemoEntry>();
  private totalBytes = 0;
  /** The path of the list last handed out or remembered: the last key of `memo`, when still in it. */
  private lastUsed: string | undefined;

  /**
   * The children of the name vector from `offset` to `end` of `payload`, as a new array. A null name never
   * comes from a real server; it reads as ''.
   */
  childNames(path: string | undefined, payload: Buffer, offset: number, end = payload.length): string[] {
    const size = end - offset;
    const entry = path === undefined ? undefined : this.memo.get(path);
    if (
      entry !== undefined &&
      entry.bytes.length === size &&
      payload.compare(entry.bytes, 0, size, offset, end) === 0
    ) {
      // Most recently used last: the eviction below drops from the front. A list read again and again is
      // already last, and moving it anyway churned the Map's table.
      if (path !== this.lastUsed) {
        this.memo.delete(path!);
        this.memo.set(path!, entry);
        this.lastUsed = path;
      }
      return entry.names.slice();
    }
    const names = namesOf(fast.decodeGetChildrenResponse(payload, offset, end).children);
    if (path !== undefined && names.length >= MIN_NAMES) this.remember(path, payload, offset, end, names);
    return names;
  }

  /** The reply bytes and the lists the memo holds now, least recently used first (tests). */
  remembered(): { bytes: number; lists: number; paths: string[] } {
    return { bytes: this.totalBytes, lists: this.memo.size, paths: [...this.memo.keys()] };
  }

  /** Forgets every list. */
  clear(): void {
    this.memo.clear();
    this.totalBytes = 0;
    this.lastUsed = undefined;
  }

  private remember(path: string, payload: Buffer, offset: number, end: number, names: string[]): void {
    const memo = this.memo;
    const old = memo.get(path);
    if (old !== undefined) {
      memo.delete(path);
      this.totalBytes -= old.bytes.length;
    }
    const size = end - offset;
    if (size > MAX_ENTRY_BYTES) return;
    for (const [key, entry] of memo) {
      if (this.totalBytes + size <= MAX_TOTAL_BYTES && memo.size < MAX_ENTRIES) break;
      memo.delete(key);
      this.totalBytes -= entry.bytes.length;
    }
    memo.set(path, { bytes: Buffer.from(payload.subarray(offset, end)), names: names.slice() });
    this.totalBytes += size;
    this.lastUsed = path;
  }
}

/** The memo of every client of the process (see above). */
export const sharedChildNames = new ChildNamesMemo();

/**
 * A decoded name list as strings. A null name never comes from a real server and reads as ''; the list is
 * returned as decoded unless one is there (no second 1,000-name array on every call). getChildren2 uses it too.
 */
export function namesOf(children: (string | null)[] | null): string[] {
  if (children === null) return [];
  return children.indexOf(null) === -1 ? (children as string[]) : children.map((c) => c ?? '');
}
