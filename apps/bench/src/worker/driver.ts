/**
 * The one shape every Node contender is driven through. Callbacks, not promises, so that the runner adds
 * the same (tiny) cost to each: a promise-based client calls `.then(ok, fail)` with the runner's own
 * stable functions, a callback-based one calls them from its callback.
 */

/** Completion callbacks, created once per slot in flight by the runner. */
export type Ok = () => void;
export type Fail = (error: unknown) => void;

/** One connected session of one client library. */
export interface ClientDriver {
  getData(path: string, ok: Ok, fail: Fail): void;
  exists(path: string, ok: Ok, fail: Fail): void;
  setData(path: string, data: Buffer, ok: Ok, fail: Fail): void;
  /** persistent node, open ACL */
  create(path: string, data: Buffer, ok: Ok, fail: Fail): void;
  delete(path: string, ok: Ok, fail: Fail): void;
  getChildren(path: string, ok: Ok, fail: Fail): void;
  /** a multi of setData on every path; undefined where the library has no multi */
  multiSetData?: (paths: readonly string[], data: Buffer, ok: Ok, fail: Fail) => void;
  /**
   * getData with a one-shot data watch; `ok` once the read (and so the watch) is in place. `onEvent` goes to
   * the library as it is (no wrapper per call), so that one watcher shared by many paths costs nothing per
   * watch outside the library (the memory scenario counts what the library keeps per watch).
   */
  watchData(path: string, onEvent: () => void, ok: Ok, fail: Fail): void;
  /** A persistent recursive watch (addWatch); undefined where the library has none. */
  addRecursiveWatch?: (path: string, onEvent: () => void) => Promise<void>;
  close(): Promise<void>;
}

/** Opens a session against `connectString` and resolves once it is connected. */
export type DriverFactory = (connectString: string) => Promise<ClientDriver>;

/** Rejects after `ms` with a message naming what did not happen in time. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
