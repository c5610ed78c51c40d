/**
 * The one shape every Node client is driven through. Callbacks, not promises, so that the runner adds the
 * same (tiny) cost to each: a promise-based client calls `.then(ok, fail)` with the runner's own stable
 * functions, a callback-based one calls them from its callback.
 */
export type Ok = () => void;
export type Fail = (error: unknown) => void;

/** One connected session of one client library. */
export interface ClientDriver {
  getData(path: string, ok: Ok, fail: Fail): void;
  exists(path: string, ok: Ok, fail: Fail): void;
  setData(path: string, data: Buffer, ok: Ok, fail: Fail): void;
  /** a persistent node, open ACL */
  create(path: string, data: Buffer, ok: Ok, fail: Fail): void;
  delete(path: string, ok: Ok, fail: Fail): void;
  getChildren(path: string, ok: Ok, fail: Fail): void;
  /** a multi of setData on every path; absent where the library has no multi */
  multiSetData?: (paths: readonly string[], data: Buffer, ok: Ok, fail: Fail) => void;
  /** getData with a one-shot data watch; `onEvent` goes to the library as it is (no wrapper per call) */
  watchData(path: string, onEvent: () => void, ok: Ok, fail: Fail): void;
  close(): Promise<void>;
}

/** Opens a session and resolves once it is connected. */
export type DriverFactory = (connectString: string) => Promise<ClientDriver>;
