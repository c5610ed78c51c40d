/**
 * A chroot view (`client.chroot('/tenants/a')`): the client's API with every path relative to a root node,
 * sharing the session, the connection and the connection states of its parent (a client, or another view:
 * views of views compose). A view maps the way the connect-string chroot does (util/paths.ts `Chroot`), one
 * level up: its paths go to the parent as `root + path`, and every path that comes back (created paths,
 * multi results, ephemerals, watch events) loses the root again. Its own bookkeeping is only what closing it
 * must undo: the watches and the listeners it registered with its parent.
 */
import { EventEmitter } from 'node:events';
import type { CreateResult } from '../protocol/create.js';
import type { GetACLResult } from '../protocol/get-acl.js';
import type { GetChildren2Result } from '../protocol/get-children.js';
import type { GetDataResult } from '../protocol/get-data.js';
import type { ConfigResult } from '../protocol/reconfig.js';
import type { AddWatchModeName } from '../protocol/reply-decoder.js';
import { ClientClosedError } from '../util/errors.js';
import type { Op, OpResult, ReadOp, ReadOutcome } from '../util/multi-types.js';
import { Chroot } from '../util/paths.js';
import type {
  ACL,
  CallOptions,
  ClientInfo,
  ConnectionState,
  CreateOptions,
  Data,
  Logger,
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
import {
  ephemeralsInView,
  opsToParent,
  parentEphemeralsPrefix,
  resultsInView,
  sequentialMode,
  toParentPath,
  viewRootArg,
} from './view-paths.js';
import { eachOwnWatcher, refusedLoop, viewEvents, watching } from './view-watch-calls.js';
import { ViewWatches } from './view-watches.js';

/**
 * The public surface of {@link ZooKeeperClient}, its own members and its events: what a view offers and what
 * it needs of its parent.
 */
export type ClientApi = Omit<
  { [K in keyof ZooKeeperClient]: ZooKeeperClient[K] },
  keyof EventEmitter | ClientOnlyMember
> &
  EventEmitter<ClientEventMap>;

/** Members of the client alone: a view shares its parent's session and cannot hand it on (`detach`). */
type ClientOnlyMember = 'detach';

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
      return this.parent.getData(at, watching(this.watches, at, options, 'data'));
    });
  }

  exists(path: string, options?: WatchOptions): Promise<Stat | null> {
    return this.run('exists', () => {
      const at = this.toParent(path, 'exists');
      return this.parent.exists(at, watching(this.watches, at, options, 'data'));
    });
  }

  getChildren(path: string, options?: WatchOptions): Promise<string[]> {
    return this.run('getChildren', () => {
      const at = this.toParent(path, 'getChildren');
      return this.parent.getChildren(at, watching(this.watches, at, options, 'children'));
    });
  }

  getChildren2(path: string, options?: WatchOptions): Promise<GetChildren2Result> {
    return this.run('getChildren2', () => {
      const at = this.toParent(path, 'getChildren2');
      return this.parent.getChildren2(at, watching(this.watches, at, options, 'children'));
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
      return this.parent
        .getEphemerals(parentEphemeralsPrefix(this.root, prefix), options)
        .then((found) => ephemeralsInView(this.root, found));
    });
  }

  sync(path: string, options?: CallOptions): Promise<void> {
    return this.run('sync', () => this.parent.sync(this.toParent(path, 'sync'), options));
  }

  /** The ensemble's configuration, `/zookeeper/config` outside every chroot (as on the client). */
  getConfig(options?: WatchOptions): Promise<GetDataResult> {
    return this.run('getConfig', () =>
      this.parent.getConfig(watching(this.watches, '/zookeeper/config', options, 'data')),
    );
  }

  reconfig(changes: ReconfigChanges, options?: CallOptions): Promise<ConfigResult> {
    return this.run('reconfig', () => this.parent.reconfig(changes, options));
  }

  multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    return this.run('multiRead', () =>
      this.parent.multiRead(opsToParent(this.root, ops, 'multiRead'), options),
    );
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
        .multi(opsToParent(this.root, ops, 'multi'), options)
        .then((results) => resultsInView(this.root, results)),
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
          return refusedLoop(error);
        }
        return viewEvents(this.parent, at, options, this.closing.signal, this.root);
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
      return eachOwnWatcher(this.watches, at, options, (own) => this.parent.removeWatches(at, type, own));
    });
  }

  checkWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher } = {},
  ): Promise<void> {
    return this.run('checkWatches', () => {
      const at = this.toParent(path, 'checkWatches');
      return eachOwnWatcher(this.watches, at, options, (own) => this.parent.checkWatches(at, type, own));
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

  /** A view path as the parent's path (view-paths.ts). */
  private toParent(path: string, operation: string, sequential = false): string {
    return toParentPath(this.root, path, operation, sequential);
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
