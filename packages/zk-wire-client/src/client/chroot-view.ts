/**
 * A chroot view (`client.chroot('/tenants/a')`): the client's API with every path relative to a root node,
 * sharing the session, the connection and the connection states of its parent (a client, or another view:
 * views of views compose). A view maps the way the connect-string chroot does (util/paths.ts `Chroot`), one
 * level up: its paths go to the parent as `root + path`, and every path that comes back (created paths,
 * multi results, ephemerals, watch events) loses the root again. Its own bookkeeping is only what closing it
 * must undo: the watches and the listeners it registered with its parent.
 */
import { EventEmitter } from 'node:events';
import type { AddWatchModeName } from '../protocol/add-watch.js';
import type { CreateResult } from '../protocol/create.js';
import type { GetACLResult } from '../protocol/get-acl.js';
import type { GetChildren2Result } from '../protocol/get-children.js';
import type { GetDataResult } from '../protocol/get-data.js';
import type { ConfigResult } from '../protocol/reconfig.js';
import type { ACL } from '../util/acl.js';
import { ClientClosedError, InvalidArgumentError } from '../util/errors.js';
import type { Logger } from '../util/logger.js';
import { Chroot, pathProblem, validatePath } from '../util/paths.js';
import type {
  CallOptions,
  ClientInfo,
  ConnectionState,
  CreateOptions,
  Data,
  Op,
  OpResult,
  ReadOp,
  ReadOutcome,
  SessionState,
  Stat,
  WatchEvent,
  Watcher,
  WatchType,
} from '../util/types.js';
import type { ReconfigChanges, VersionOptions } from './call-kinds.js';
import type { ClientEventMap, WatchOptions, ZooKeeperClient } from './client.js';
import type { EnsembleConfig } from './ensemble-config.js';
import { linkSignals } from './linked-signal.js';
import { ViewWatches, type ViewWatchKind } from './view-watches.js';

/**
 * The public surface of {@link ZooKeeperClient}, its own members and its events: what a view offers and what
 * it needs of its parent.
 */
export type ClientApi = Omit<{ [K in keyof ZooKeeperClient]: ZooKeeperClient[K] }, keyof EventEmitter> &
  EventEmitter<ClientEventMap>;

/** Checks a view's root: an absolute znode path; `/` is the parent's own root. */
export function viewRootArg(root: unknown): string {
  const problem = pathProblem(root);
  if (problem !== null) {
    throw new InvalidArgumentError('root', `${JSON.stringify(root)} ${problem}`, { operation: 'chroot' });
  }
  return root as string;
}

/** A client-shaped view of a parent client under a root node; make one with `client.chroot(root)`. */
export class ChrootView extends EventEmitter<ClientEventMap> implements ClientApi, AsyncDisposable {
  private readonly parent: ClientApi;
  private readonly root: Chroot;
  private readonly watches = new ViewWatches((watcher, event) => this.deliver(watcher, event));
  /** Aborted by close: ends the view's `states()` and `watchPersistent()` loops. */
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;
  private readonly forwardState = (state: ConnectionState) => {
    this.emit('state', state);
  };

  /** Use `client.chroot(root)`. */
  constructor(parent: ClientApi, root: string) {
    super();
    this.parent = parent;
    this.root = new Chroot(viewRootArg(root));
    parent.on('state', this.forwardState);
  }

  // ---- the shared session ------------------------------------------------------------------------------

  get sessionId(): bigint {
    return this.parent.sessionId;
  }
  get sessionPassword(): Uint8Array {
    return this.parent.sessionPassword;
  }
  get negotiatedTimeoutMs(): number {
    return this.parent.negotiatedTimeoutMs;
  }
  /** The session's state (a view has no state of its own: closing it leaves the session as it is). */
  get state(): SessionState {
    return this.parent.state;
  }
  get serverVersion(): string | undefined {
    return this.parent.serverVersion;
  }
  get logger(): Logger | undefined {
    return this.parent.logger;
  }
  get serverList(): string[] {
    return this.parent.serverList;
  }
  get ensembleConfig(): EnsembleConfig | undefined {
    return this.parent.ensembleConfig;
  }
  /** The server path of this view's `/` ('' when that is the server's root). */
  get chrootPrefix(): string {
    return this.parent.chrootPrefix + this.root.prefix;
  }
  /** True once `close()` was called. */
  get isClosed(): boolean {
    return this.closed !== undefined;
  }

  /** A view of this view (the roots compose). */
  chroot(root: string): ChrootView {
    return new ChrootView(this, root);
  }

  updateServerList(connectString: string): boolean {
    return this.parent.updateServerList(connectString);
  }

  toServerPath(path: string): string {
    return this.parent.toServerPath(this.toParent(path, 'toServerPath'));
  }
  toClientPath(serverPath: string): string {
    return this.root.toClient(this.parent.toClientPath(serverPath));
  }

  connected(options?: CallOptions): Promise<void> {
    return this.run('connected', () => this.parent.connected(options));
  }

  addAuth(scheme: string, credentials: Uint8Array | string, options?: CallOptions): Promise<void> {
    return this.run('addAuth', () => this.parent.addAuth(scheme, credentials, options));
  }

  whoAmI(options?: CallOptions): Promise<ClientInfo[]> {
    return this.run('whoAmI', () => this.parent.whoAmI(options));
  }

  /** The parent's connection states; the loop also ends when this view closes. */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<ConnectionState> {
    const own = typeof options === 'object' && options !== null ? options.signal : undefined;
    const link = linkSignals(own, this.closing.signal);
    return this.parent.states({ ...options, signal: link.signal });
  }

  // ---- reads -------------------------------------------------------------------------------------------

  getData(path: string, options?: WatchOptions): Promise<GetDataResult> {
    return this.run('getData', () => {
      const at = this.toParent(path, 'getData');
      return this.parent.getData(at, this.watching(at, options, 'data'));
    });
  }

  exists(path: string, options?: WatchOptions): Promise<Stat | null> {
    return this.run('exists', () => {
      const at = this.toParent(path, 'exists');
      return this.parent.exists(at, this.watching(at, options, 'data'));
    });
  }

  getChildren(path: string, options?: WatchOptions): Promise<string[]> {
    return this.run('getChildren', () => {
      const at = this.toParent(path, 'getChildren');
      return this.parent.getChildren(at, this.watching(at, options, 'children'));
    });
  }

  getChildren2(path: string, options?: WatchOptions): Promise<GetChildren2Result> {
    return this.run('getChildren2', () => {
      const at = this.toParent(path, 'getChildren2');
      return this.parent.getChildren2(at, this.watching(at, options, 'children'));
    });
  }

  getACL(path: string, options?: CallOptions): Promise<GetACLResult> {
    return this.run('getACL', () => this.parent.getACL(this.toParent(path, 'getACL'), options));
  }

  getAllChildrenNumber(path: string, options?: CallOptions): Promise<number> {
    return this.run('getAllChildrenNumber', () =>
      this.parent.getAllChildrenNumber(this.toParent(path, 'getAllChildrenNumber'), options),
    );
  }

  /**
   * This session's ephemeral nodes under the view whose path starts with `prefix`, as view paths. The
   * session's ephemerals outside the view's root (made by the parent or other views) are not listed.
   */
  getEphemerals(prefix = '/', options?: CallOptions): Promise<string[]> {
    return this.run('getEphemerals', () => {
      if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
        throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
          operation: 'getEphemerals',
        });
      }
      const root = this.root.prefix;
      // The root itself and the nodes below it, not a sibling that merely starts with the root's name.
      const parentPrefix = root === '' ? prefix : prefix === '/' ? root : root + prefix;
      return this.parent.getEphemerals(parentPrefix, options).then((found) => {
        const mine: string[] = [];
        for (const path of found) {
          if (root === '' || path === root || path.startsWith(`${root}/`))
            mine.push(this.root.toClient(path));
        }
        return mine;
      });
    });
  }

  sync(path: string, options?: CallOptions): Promise<void> {
    return this.run('sync', () => this.parent.sync(this.toParent(path, 'sync'), options));
  }

  /** The ensemble's configuration, `/zookeeper/config` outside every chroot (as on the client). */
  getConfig(options?: WatchOptions): Promise<GetDataResult> {
    return this.run('getConfig', () =>
      this.parent.getConfig(this.watching('/zookeeper/config', options, 'data')),
    );
  }

  reconfig(changes: ReconfigChanges, options?: CallOptions): Promise<ConfigResult> {
    return this.run('reconfig', () => this.parent.reconfig(changes, options));
  }

  multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    return this.run('multiRead', () => this.parent.multiRead(this.opsToParent(ops, 'multiRead'), options));
  }

  // ---- writes ------------------------------------------------------------------------------------------

  create(path: string, data?: Data, options?: CreateOptions): Promise<string> {
    return this.run('create', () =>
      this.parent
        .create(this.toParent(path, 'create', sequentialMode(options)), data, options)
        .then((created) => this.root.toClient(created)),
    );
  }

  create2(path: string, data?: Data, options?: CreateOptions): Promise<CreateResult> {
    return this.run('create2', () =>
      this.parent
        .create2(this.toParent(path, 'create2', sequentialMode(options)), data, options)
        .then((created) => ({ ...created, path: this.root.toClient(created.path) })),
    );
  }

  ensurePath(
    path: string,
    mode: 'persistent' | 'container' = 'persistent',
    options?: CallOptions & { acl?: ACL[] },
  ): Promise<void> {
    return this.run('ensurePath', () =>
      this.parent.ensurePath(this.toParent(path, 'ensurePath'), mode, options),
    );
  }

  delete(path: string, options?: CallOptions & { version?: number; guaranteed?: boolean }): Promise<void> {
    return this.run('delete', () => this.parent.delete(this.toParent(path, 'delete'), options));
  }

  deleteRecursive(path: string, options?: CallOptions): Promise<void> {
    return this.run('deleteRecursive', () =>
      this.parent.deleteRecursive(this.toParent(path, 'deleteRecursive'), options),
    );
  }

  setData(path: string, data: Data, options?: VersionOptions): Promise<Stat> {
    return this.run('setData', () => this.parent.setData(this.toParent(path, 'setData'), data, options));
  }

  setACL(path: string, acl: ACL[], options?: VersionOptions): Promise<Stat> {
    return this.run('setACL', () => this.parent.setACL(this.toParent(path, 'setACL'), acl, options));
  }

  multi(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    return this.run('multi', () =>
      this.parent
        .multi(this.opsToParent(ops, 'multi'), options)
        .then((results) =>
          results.map((result) =>
            result.type === 'create' ? { ...result, path: this.root.toClient(result.path) } : result,
          ),
        ),
    );
  }

  // ---- watches -----------------------------------------------------------------------------------------

  addWatch(path: string, mode: AddWatchModeName, watcher: Watcher, options?: CallOptions): Promise<void> {
    return this.run('addWatch', () => {
      const at = this.toParent(path, 'addWatch');
      const wrapped = typeof watcher === 'function' ? this.watches.wrap(at, watcher, 'persistent') : watcher;
      return this.parent.addWatch(at, mode, wrapped, options);
    });
  }

  /** Persistent watch events with view paths; the loop also ends when this view closes. */
  watchPersistent(
    path: string,
    options: { recursive?: boolean; signal?: AbortSignal } = {},
  ): AsyncIterable<WatchEvent> {
    return {
      [Symbol.asyncIterator]: () => {
        let at: string;
        try {
          this.refuseWhenClosed('watchPersistent');
          at = this.toParent(path, 'watchPersistent');
        } catch (error) {
          return refused(error);
        }
        const own = typeof options === 'object' && options !== null ? options.signal : undefined;
        const link = linkSignals(own, this.closing.signal);
        const events = this.parent.watchPersistent(at, { ...options, signal: link.signal });
        const inner = events[Symbol.asyncIterator]();
        const iterator: AsyncIterableIterator<WatchEvent> = {
          next: async () => {
            const next = await inner.next().catch((error: unknown) => {
              link.dispose();
              throw error;
            });
            if (next.done === true) {
              link.dispose();
              return next;
            }
            return { done: false, value: { ...next.value, path: this.root.toClient(next.value.path) } };
          },
          return: async () => {
            link.dispose();
            await inner.return?.();
            return { done: true, value: undefined };
          },
          [Symbol.asyncIterator]: () => iterator,
        };
        return iterator;
      },
    };
  }

  removeWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher; local?: boolean } = {},
  ): Promise<void> {
    return this.run('removeWatches', () => {
      const at = this.toParent(path, 'removeWatches');
      return this.eachOwnWatcher(at, options, (own) => this.parent.removeWatches(at, type, own));
    });
  }

  checkWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher } = {},
  ): Promise<void> {
    return this.run('checkWatches', () => {
      const at = this.toParent(path, 'checkWatches');
      return this.eachOwnWatcher(at, options, (own) => this.parent.checkWatches(at, type, own));
    });
  }

  // ---- closing -----------------------------------------------------------------------------------------

  /**
   * Removes the watches and listeners this view registered with its parent (locally at once, and from the
   * server where no other watcher needs them), and ends its loops; the session and the parent go on.
   * Later calls on the view fail with ClientClosedError. Idempotent.
   */
  close(): Promise<void> {
    if (this.closed === undefined) {
      this.parent.off('state', this.forwardState);
      this.closing.abort(new ClientClosedError({ operation: 'chroot' }));
      const removals = this.watches.takeAll().map(({ path, wrapper }) =>
        // Gone already (a one-shot watch that fired, a closed or expired parent): nothing left to remove.
        this.parent.removeWatches(path, 'any', { watcher: wrapper, local: true }).catch(() => {}),
      );
      this.closed = Promise.all(removals).then(() => {});
    }
    return this.closed;
  }

  /** `await using view = client.chroot(root)` closes the view (never the session) at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // ---- plumbing ----------------------------------------------------------------------------------------

  /** Runs a call through the parent; a closed view refuses it, and no call throws synchronously. */
  private run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      this.refuseWhenClosed(operation);
      return call();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private refuseWhenClosed(operation: string): void {
    if (this.closed !== undefined) {
      throw new ClientClosedError({
        operation,
        detail: `the chroot view ${this.chrootPrefix || '/'} is closed`,
      });
    }
  }

  /** A view path as the parent's path; checked first, so that a bad path never reaches another node. */
  private toParent(path: string, operation: string, sequential = false): string {
    validatePath(path, { operation, sequential });
    // A sequential node named by the server alone goes under the root, not beside it (`/t/a` + `0000000001`).
    if (sequential && path === '/' && this.root.prefix !== '') return `${this.root.prefix}/`;
    return this.root.toServer(path);
  }

  private opsToParent<O extends { path: string }>(ops: O[], operation: string): O[] {
    if (!Array.isArray(ops)) return ops;
    return ops.map((op) => {
      if (typeof op !== 'object' || op === null || typeof op.path !== 'string') return op;
      const sequential = (op as { mode?: unknown }).mode;
      return { ...op, path: this.toParent(op.path, operation, isSequential(sequential)) };
    });
  }

  /** The options with the watch wrapped for this view (passed on as they are when there is none). */
  private watching(parentPath: string, options: WatchOptions | undefined, kind: ViewWatchKind) {
    if (typeof options !== 'object' || options === null || typeof options.watch !== 'function')
      return options;
    return { ...options, watch: this.watches.wrap(parentPath, options.watch, kind) };
  }

  /**
   * Runs a removal or check of watchers for this view's own watchers only: the one given as `watcher` (by the
   * wrapper the parent knows it by), or, without one, each watcher this view armed at the path, never the
   * parent's or another view's. Succeeds when it did for any of them; else fails as the first did (NoWatcher
   * when the view has none there, as the client does for a path it watches nothing on).
   */
  private eachOwnWatcher<O extends { watcher?: Watcher }>(
    parentPath: string,
    options: O,
    call: (options: O) => Promise<void>,
  ): Promise<void> {
    if (typeof options !== 'object' || options === null) return call(options);
    if (options.watcher !== undefined) {
      if (typeof options.watcher !== 'function') return call(options);
      // A watcher this view never armed there is a function the parent does not know either (NoWatcher).
      const wrapper = this.watches.wrapperOf(parentPath, options.watcher) ?? (() => {});
      return call({ ...options, watcher: wrapper });
    }
    const wrappers = this.watches.wrappersAt(parentPath);
    // None: the parent is asked for a watcher it cannot have, and answers as it does for an unwatched path.
    if (wrappers.length === 0) return call({ ...options, watcher: () => {} });
    return Promise.allSettled(wrappers.map((watcher) => call({ ...options, watcher }))).then((outcomes) => {
      if (outcomes.some((outcome) => outcome.status === 'fulfilled')) return;
      throw (outcomes[0] as PromiseRejectedResult).reason;
    });
  }

  /** Hands an event to the application with this view's path; silent once the view is closed. */
  private deliver(watcher: Watcher, event: WatchEvent): void {
    if (this.closed !== undefined) return;
    const mine: WatchEvent = { ...event, path: this.root.toClient(event.path) };
    try {
      watcher(mine);
    } catch (error) {
      // Reported with the view's path where the view has a listener, else up to the parent's handling.
      if (this.listenerCount('watcherError') === 0) throw error;
      this.emit('watcherError', error, mine);
    }
  }
}

function isSequential(mode: unknown): boolean {
  return (
    mode === 'persistent-sequential' ||
    mode === 'ephemeral-sequential' ||
    mode === 'persistent-sequential-ttl'
  );
}

function sequentialMode(options: CreateOptions | undefined): boolean {
  return typeof options === 'object' && options !== null && isSequential(options.mode);
}

/** An iterator whose first `next()` rejects with `error` (a refused loop, as the client's). */
function refused(error: unknown): AsyncIterableIterator<WatchEvent> {
  const iterator: AsyncIterableIterator<WatchEvent> = {
    next: () => Promise.reject(error),
    return: () => Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
