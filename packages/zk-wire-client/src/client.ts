/**
 * The public API: {@link createClient}, {@link connect} and {@link ZooKeeperClient}. Each call checks its
 * arguments, maps the path into the chroot, builds its frame (ops/*) and hands it to the session's pipeline.
 * Calls never throw synchronously: every failure is a rejected promise with a typed error.
 */
import { EventEmitter } from 'node:events';
import type { ACL } from './acl.js';
import { aclArg, DEFAULT_MAX_DATA_LENGTH, dataBytes, modeArg, ttlArg, versionArg } from './args.js';
import { AsyncQueue } from './async-queue.js';
import {
  InvalidArgumentError,
  isNodeExists,
  isNoNode,
  isNotEmpty,
  NoWatcherError,
  OperationTimeoutError,
  SessionExpiredError,
  type ZooKeeperError,
} from './errors.js';
import { type AddWatchContext, addWatchReply, encodeAddWatch } from './ops/add-watch.js';
import { type CreateArgs, type CreateResult, createReply, encodeCreate, isSequential } from './ops/create.js';
import { deleteReply, encodeDelete } from './ops/delete.js';
import { encodeExists, existsReply } from './ops/exists.js';
import { encodeGetACL, type GetACLResult, getACLReply } from './ops/get-acl.js';
import { encodeGetAllChildrenNumber, getAllChildrenNumberReply } from './ops/get-all-children-number.js';
import {
  encodeGetChildren,
  type GetChildren2Result,
  getChildren2Reply,
  getChildrenReply,
} from './ops/get-children.js';
import { encodeGetData, type GetDataResult, getDataReply } from './ops/get-data.js';
import { encodeGetEphemerals, getEphemeralsReply } from './ops/get-ephemerals.js';
import { encodeMulti, encodeMultiRead, multiReadReply, multiReply } from './ops/multi.js';
import { encodeSetACL, setACLReply } from './ops/set-acl.js';
import { encodeSetData, setDataReply } from './ops/set-data.js';
import { encodeSync, syncReply } from './ops/sync.js';
import { checkWatchesReply, encodeWatchRemoval, removeWatchesReply } from './ops/watch-removal.js';
import { encodeWhoAmI, whoAmIReply } from './ops/who-am-i.js';
import { join, parent, validatePath } from './paths.js';
import type { ReplyDecoder } from './pending.js';
import type { SubmitOptions } from './pipeline.js';
import { FEATURE_SINCE } from './server-version.js';
import { Session } from './session.js';
import type {
  CallOptions,
  ClientInfo,
  ClientOptions,
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
} from './types.js';
import { removalEventType } from './watches.js';

/** Options of reads that can set a one-shot watch. */
export interface WatchOptions extends CallOptions {
  /** Called once on the next change (armed by the same request as the read). */
  watch?: Watcher | undefined;
}

/** Events of the client (EventEmitter). */
export interface ClientEventMap {
  /** Connection state changes, with Curator's meanings. */
  state: [ConnectionState];
  /** A watcher threw; the client carries on. */
  watcherError: [unknown, WatchEvent];
}

/** A ZooKeeper client: one session over a sequence of connections. */
export class ZooKeeperClient extends EventEmitter<ClientEventMap> implements AsyncDisposable {
  private readonly session: Session;
  private readonly maxDataLength: number;

  /** Use {@link createClient} or {@link connect}. */
  constructor(options: ClientOptions) {
    super();
    this.session = new Session(options);
    this.maxDataLength = options.maxDataLength ?? DEFAULT_MAX_DATA_LENGTH;
    this.session.on('state', (state) => this.emit('state', state));
    this.session.on('watcherError', (error, event) => this.emit('watcherError', error, event));
    this.session.start();
  }

  /** The session id (0n until the first connection). */
  get sessionId(): bigint {
    return this.session.sessionId;
  }
  /** The session password (16 bytes), to reattach with `options.session`. */
  get sessionPassword(): Uint8Array {
    return Buffer.from(this.session.password);
  }
  /** The session timeout the server granted (0 until connected). */
  get negotiatedTimeoutMs(): number {
    return this.session.negotiatedTimeoutMs;
  }
  /** The session state. */
  get state(): SessionState {
    return this.session.state;
  }
  /** The server version, once a version-gated call asked for it. */
  get serverVersion(): string | undefined {
    return this.session.serverVersion;
  }
  /** The chroot of the connect string ('' for none). */
  get chroot(): string {
    return this.session.chroot.prefix;
  }

  /** Resolves once connected (r/w, or read-only when allowed); rejects when closed or expired. */
  connected(options: CallOptions = {}): Promise<void> {
    return new Promise((resolve, reject) => {
      const settled = () => {
        this.session.off('sessionState', onState);
        options.signal?.removeEventListener('abort', onAbort);
        if (timer !== undefined) clearTimeout(timer);
      };
      const check = (): boolean => {
        const refusal = this.session.refusal();
        if (refusal) {
          settled();
          reject(refusal);
          return true;
        }
        if (this.session.isReady && (this.state === 'connected' || this.state === 'read-only')) {
          settled();
          resolve();
          return true;
        }
        return false;
      };
      const onState = () => {
        // The state changes just before the pipeline opens; check once the handshake steps are done.
        queueMicrotask(check);
      };
      const onAbort = () => {
        settled();
        reject(options.signal!.reason);
      };
      let timer: NodeJS.Timeout | undefined;
      if (options.signal?.aborted) return reject(options.signal.reason);
      if (check()) return;
      this.session.on('sessionState', onState);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.timeoutMs) {
        timer = setTimeout(() => {
          settled();
          reject(new OperationTimeoutError({ operation: 'connected' }));
        }, options.timeoutMs);
      }
    });
  }

  // ---- plumbing ---------------------------------------------------------------------------------------

  private serverPath(path: string, operation: string, sequential = false): string {
    validatePath(path, { sequential, operation });
    return this.session.chroot.toServer(path);
  }

  private send<R>(
    decoder: ReplyDecoder<R>,
    encode: (xid: number) => Buffer,
    path: string | undefined,
    context: unknown,
    options: SubmitOptions | undefined,
  ): Promise<R> {
    const refusal = this.session.refusal();
    if (refusal) return Promise.reject(refusal);
    const pipeline = this.session.pipeline;
    const xid = pipeline.nextXid();
    return pipeline.submit(decoder, xid, encode(xid), path, context, options);
  }

  private watcherArg(watch: unknown, operation: string, path: string): Watcher | undefined {
    if (watch === undefined) return undefined;
    if (typeof watch !== 'function')
      throw new InvalidArgumentError('watch', 'must be a function', { operation, path });
    return watch as Watcher;
  }

  private async gate(operation: keyof typeof FEATURE_SINCE): Promise<void> {
    await this.session.requireVersion(operation, FEATURE_SINCE[operation]);
  }

  // ---- reads ------------------------------------------------------------------------------------------

  /** The node's data and Stat; `watch` fires on dataChanged or deleted. */
  getData(path: string, options?: WatchOptions): Promise<GetDataResult> {
    try {
      const serverPath = this.serverPath(path, 'getData');
      const watcher = this.watcherArg(options?.watch, 'getData', path);
      return this.send(
        getDataReply,
        (xid) => encodeGetData(xid, serverPath, watcher !== undefined),
        path,
        watcher,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The node's Stat, or null when it does not exist; `watch` fires on created, dataChanged or deleted. */
  exists(path: string, options?: WatchOptions): Promise<Stat | null> {
    try {
      const serverPath = this.serverPath(path, 'exists');
      const watcher = this.watcherArg(options?.watch, 'exists', path);
      return this.send(
        existsReply,
        (xid) => encodeExists(xid, serverPath, watcher !== undefined),
        path,
        watcher,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The names of the node's children (unordered); `watch` fires on childrenChanged or deleted. */
  getChildren(path: string, options?: WatchOptions): Promise<string[]> {
    try {
      const serverPath = this.serverPath(path, 'getChildren');
      const watcher = this.watcherArg(options?.watch, 'getChildren', path);
      return this.send(
        getChildrenReply,
        (xid) => encodeGetChildren(xid, serverPath, watcher !== undefined, false),
        path,
        watcher,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The children and the node's own Stat. */
  getChildren2(path: string, options?: WatchOptions): Promise<GetChildren2Result> {
    try {
      const serverPath = this.serverPath(path, 'getChildren2');
      const watcher = this.watcherArg(options?.watch, 'getChildren2', path);
      return this.send(
        getChildren2Reply,
        (xid) => encodeGetChildren(xid, serverPath, watcher !== undefined, true),
        path,
        watcher,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The node's ACL and Stat. */
  getACL(path: string, options?: CallOptions): Promise<GetACLResult> {
    try {
      const serverPath = this.serverPath(path, 'getACL');
      return this.send(getACLReply, (xid) => encodeGetACL(xid, serverPath), path, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The number of all descendants of the node (server 3.6.0+). */
  async getAllChildrenNumber(path: string, options?: CallOptions): Promise<number> {
    const serverPath = this.serverPath(path, 'getAllChildrenNumber');
    await this.gate('getAllChildrenNumber');
    return this.send(
      getAllChildrenNumberReply,
      (xid) => encodeGetAllChildrenNumber(xid, serverPath),
      path,
      undefined,
      options,
    );
  }

  /** This session's ephemeral nodes whose path starts with `prefix` (default all), as client paths (3.6.0+). */
  async getEphemerals(prefix = '/', options?: CallOptions): Promise<string[]> {
    if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
      throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
        operation: 'getEphemerals',
      });
    }
    await this.gate('getEphemerals');
    const serverPrefix = this.session.chroot.toServer(prefix);
    return this.send(
      getEphemeralsReply,
      (xid) => encodeGetEphemerals(xid, serverPrefix),
      prefix,
      undefined,
      options,
    );
  }

  /** Makes the connected server catch up with the leader for this path. */
  sync(path: string, options?: CallOptions): Promise<void> {
    try {
      const serverPath = this.serverPath(path, 'sync');
      return this.send(syncReply, (xid) => encodeSync(xid, serverPath), path, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The identities of this connection (server 3.7.0+). */
  async whoAmI(options?: CallOptions): Promise<ClientInfo[]> {
    await this.gate('whoAmI');
    return this.send(whoAmIReply, encodeWhoAmI, undefined, undefined, options);
  }

  // ---- writes -----------------------------------------------------------------------------------------

  private createArgs(
    path: string,
    data: Data,
    options: CreateOptions | undefined,
    operation: string,
  ): CreateArgs {
    const mode = modeArg(options?.mode, operation, path);
    const serverPath = this.serverPath(path, operation, isSequential(mode));
    return {
      serverPath,
      data: dataBytes(data, this.maxDataLength, operation, path),
      acl: aclArg(options?.acl, operation, path),
      mode,
      ttl: ttlArg(mode, options?.ttlMs, operation, path),
    };
  }

  /** Creates a node and resolves with its actual path (with the sequence suffix for sequential modes). */
  create(path: string, data?: Data, options?: CreateOptions): Promise<string> {
    return this.create2Internal(path, data, options, false).then((r) => r.path);
  }

  /** Creates a node and resolves with its actual path and its Stat. */
  create2(path: string, data?: Data, options?: CreateOptions): Promise<{ path: string; stat: Stat }> {
    return this.create2Internal(path, data, options, true);
  }

  private create2Internal(path: string, data: Data, options: CreateOptions | undefined, withStat: boolean) {
    const operation = withStat ? 'create2' : 'create';
    let args: CreateArgs;
    try {
      args = this.createArgs(path, data, options, operation);
    } catch (error) {
      return Promise.reject(error);
    }
    const attempt = () =>
      this.send(createReply, (xid) => encodeCreate(xid, args, withStat), path, undefined, options);
    const parents = options?.createParents;
    if (!parents) return attempt();
    return attempt().catch(async (error: unknown) => {
      if (!isNoNode(error)) throw error;
      await this.ensurePath(parent(path), parents === 'container' ? 'container' : 'persistent', options);
      return attempt();
    }) as Promise<CreateResult>;
  }

  /**
   * Creates every missing node of `path` (not only its parents), as persistent nodes or containers with
   * open ACLs unless `acl` is given. Nodes made concurrently by others are fine.
   */
  async ensurePath(
    path: string,
    mode: 'persistent' | 'container' = 'persistent',
    options?: CallOptions & { acl?: ACL[] },
  ): Promise<void> {
    validatePath(path, { operation: 'ensurePath' });
    let current = '';
    for (const segment of path.split('/').filter(Boolean)) {
      current = `${current}/${segment}`;
      if (await this.exists(current, options)) continue;
      try {
        await this.create(current, null, { ...options, mode, acl: options?.acl });
      } catch (error) {
        if (!isNodeExists(error)) throw error;
      }
    }
  }

  /** Deletes a node; `version` (default -1 = any) must match its data version. */
  delete(path: string, options?: CallOptions & { version?: number }): Promise<void> {
    try {
      const serverPath = this.serverPath(path, 'delete');
      const version = versionArg(options?.version, 'delete', path);
      return this.send(
        deleteReply,
        (xid) => encodeDelete(xid, serverPath, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Deletes a node and its whole subtree, children first; nodes already gone are fine. */
  async deleteRecursive(path: string, options?: CallOptions): Promise<void> {
    validatePath(path, { operation: 'deleteRecursive' });
    for (;;) {
      let children: string[];
      try {
        children = await this.getChildren(path, options);
      } catch (error) {
        if (isNoNode(error)) return;
        throw error;
      }
      for (const child of children) await this.deleteRecursive(join(path, child), options);
      if (path === '/') return;
      try {
        await this.delete(path, options);
        return;
      } catch (error) {
        if (isNoNode(error)) return;
        // A child appeared meanwhile: list again.
        if (!isNotEmpty(error)) throw error;
      }
    }
  }

  /** Replaces the node's data; `version` (default -1 = any) must match. Resolves with the new Stat. */
  setData(path: string, data: Data, options?: CallOptions & { version?: number }): Promise<Stat> {
    try {
      const serverPath = this.serverPath(path, 'setData');
      const bytes = dataBytes(data, this.maxDataLength, 'setData', path);
      const version = versionArg(options?.version, 'setData', path);
      return this.send(
        setDataReply,
        (xid) => encodeSetData(xid, serverPath, bytes, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Replaces the node's ACL; `version` (default -1) must match its aversion. Resolves with the new Stat. */
  setACL(path: string, acl: ACL[], options?: CallOptions & { version?: number }): Promise<Stat> {
    try {
      const serverPath = this.serverPath(path, 'setACL');
      const list = aclArg(acl, 'setACL', path);
      const version = versionArg(options?.version, 'setACL', path);
      return this.send(
        setACLReply,
        (xid) => encodeSetACL(xid, serverPath, list, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs ops atomically. Resolves with one result per op; on failure rejects with MultiError, whose
   * `results` holds the error of each op (the failing one, and RUNTIMEINCONSISTENCY / OK for the others).
   */
  multi(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    try {
      if (!Array.isArray(ops))
        throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multi' });
      if (ops.length === 0) return Promise.resolve([]);
      const encoded = ops.map((op, i) => this.multiOpArgs(op, i));
      return this.send(multiReply, (xid) => encodeMulti(xid, encoded), undefined, encoded, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private multiOpArgs(op: Op, index: number) {
    const operation = `multi[${index}].${op?.type}`;
    switch (op?.type) {
      case 'create':
        return {
          type: 'create' as const,
          path: op.path,
          create: this.createArgs(op.path, op.data, op, operation),
        };
      case 'delete':
        return {
          type: 'delete' as const,
          path: op.path,
          serverPath: this.serverPath(op.path, operation),
          version: versionArg(op.version, operation, op.path),
        };
      case 'setData':
        return {
          type: 'setData' as const,
          path: op.path,
          serverPath: this.serverPath(op.path, operation),
          data: dataBytes(op.data, this.maxDataLength, operation, op.path),
          version: versionArg(op.version, operation, op.path),
        };
      case 'check':
        return {
          type: 'check' as const,
          path: op.path,
          serverPath: this.serverPath(op.path, operation),
          version: versionArg(op.version, operation, op.path),
        };
      default:
        throw new InvalidArgumentError(
          'ops',
          `op ${index} has unknown type ${JSON.stringify((op as { type?: unknown })?.type)}`,
          { operation: 'multi' },
        );
    }
  }

  /** Runs reads in one request (server 3.6.0+); each op resolves or fails on its own. */
  async multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    if (!Array.isArray(ops))
      throw new InvalidArgumentError('ops', 'must be an array', { operation: 'multiRead' });
    if (ops.length === 0) return [];
    const encoded = ops.map((op, i) => {
      if (op?.type !== 'getData' && op?.type !== 'getChildren') {
        throw new InvalidArgumentError('ops', `op ${i} must be getData or getChildren`, {
          operation: 'multiRead',
        });
      }
      return {
        type: op.type,
        path: op.path,
        serverPath: this.serverPath(op.path, `multiRead[${i}].${op.type}`),
      };
    });
    await this.gate('multiRead');
    return this.send(multiReadReply, (xid) => encodeMultiRead(xid, encoded), undefined, encoded, options);
  }

  // ---- watches ----------------------------------------------------------------------------------------

  /** Adds a persistent (or persistent-recursive) watch, which stays until removed (server 3.6.0+). */
  async addWatch(
    path: string,
    mode: 'persistent' | 'persistent-recursive',
    watcher: Watcher,
    options?: CallOptions,
  ): Promise<void> {
    const serverPath = this.serverPath(path, 'addWatch');
    if (mode !== 'persistent' && mode !== 'persistent-recursive') {
      throw new InvalidArgumentError('mode', `must be 'persistent' or 'persistent-recursive'`, {
        operation: 'addWatch',
        path,
      });
    }
    const context: AddWatchContext = { watcher: this.watcherArg(watcher, 'addWatch', path)!, mode };
    if (typeof watcher !== 'function')
      throw new InvalidArgumentError('watcher', 'must be a function', { operation: 'addWatch', path });
    await this.gate('addWatch');
    return this.send(addWatchReply, (xid) => encodeAddWatch(xid, serverPath, mode), path, context, options);
  }

  /**
   * Persistent watch events as an async iterable. The watch is added on the first read; breaking out of
   * the loop (or aborting `signal`) removes it. The iteration ends when the client closes or the session
   * expires.
   */
  watchPersistent(
    path: string,
    options: { recursive?: boolean; signal?: AbortSignal } = {},
  ): AsyncIterable<WatchEvent> {
    const mode = options.recursive ? 'persistent-recursive' : 'persistent';
    return {
      [Symbol.asyncIterator]: () => {
        const watcher: Watcher = (event) => queue.push(event);
        const stop = () => {
          this.session.off('sessionState', onState);
          this.removeWatches(path, 'any', { watcher }).catch(() => {});
        };
        const queue = new AsyncQueue<WatchEvent>(stop);
        // The watch dies with the session: the loop ends (with the reason when the session expired).
        const onState = (state: SessionState) => {
          if (state === 'closed' || state === 'expired') {
            this.session.off('sessionState', onState);
            queue.end(
              state === 'expired'
                ? new SessionExpiredError({ path, operation: 'watchPersistent' })
                : undefined,
            );
          }
        };
        this.session.on('sessionState', onState);
        if (options.signal) {
          if (options.signal.aborted) void queue.return();
          else options.signal.addEventListener('abort', () => void queue.return(), { once: true });
        }
        if (!queue.isEnded) {
          this.addWatch(path, mode, watcher, { signal: options.signal }).catch((error: unknown) => {
            this.session.off('sessionState', onState);
            queue.end(error);
          });
        }
        return queue;
      },
    };
  }

  /**
   * Removes watches of a type at a path: one watcher (`watcher`), or all. The server watch is removed
   * (removeWatches) once no local watcher needs it, else only checked (checkWatches). Each removed watcher
   * gets a dataWatchRemoved / childWatchRemoved / persistentWatchRemoved event. With `local`, watchers are
   * removed locally even when the server cannot be asked.
   */
  async removeWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher; local?: boolean } = {},
  ): Promise<void> {
    const serverPath = this.serverPath(path, 'removeWatches');
    this.watchTypeArg(type, 'removeWatches', path);
    const watches = this.session.watches;
    if (!watches.has(path, type, options.watcher))
      throw new NoWatcherError({ path, operation: 'removeWatches' });
    if (options.local && !this.session.isReady) {
      this.removeLocally(path, type, options.watcher);
      return;
    }
    await this.gate('removeWatches');
    const remaining = options.watcher === undefined ? false : this.othersRemain(path, type, options.watcher);
    const decoder = remaining ? checkWatchesReply : removeWatchesReply;
    try {
      await this.send(
        decoder,
        (xid) => encodeWatchRemoval(xid, serverPath, type, !remaining),
        path,
        undefined,
        options,
      );
    } catch (error) {
      const code = (error as ZooKeeperError).code;
      if (!(options.local && (code === 'CONNECTIONLOSS' || code === 'NOWATCHER'))) throw error;
    }
    this.removeLocally(path, type, options.watcher);
  }

  private removeLocally(path: string, type: WatchType, watcher: Watcher | undefined): void {
    const removed = this.session.watches.remove(path, type, watcher);
    const seen = new Set<Watcher>();
    for (const entry of removed) {
      if (seen.has(entry.watcher)) continue;
      seen.add(entry.watcher);
      this.session.dispatch([entry.watcher], { type: removalEventType(entry.kind), path });
    }
  }

  private othersRemain(path: string, type: WatchType, watcher: Watcher): boolean {
    const watches = this.session.watches;
    const kinds =
      type === 'children'
        ? (['child'] as const)
        : type === 'data'
          ? (['data', 'exist'] as const)
          : (['data', 'exist', 'child', 'persistent', 'persistentRecursive'] as const);
    return kinds.some((kind) => watches.watchersAt(kind, path).some((w) => w !== watcher));
  }

  /** Checks that the server holds a watch of the type at the path for this connection (NoWatcher if not). */
  async checkWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher } = {},
  ): Promise<void> {
    const serverPath = this.serverPath(path, 'checkWatches');
    this.watchTypeArg(type, 'checkWatches', path);
    if (options.watcher !== undefined && !this.session.watches.has(path, type, options.watcher)) {
      throw new NoWatcherError({ path, operation: 'checkWatches' });
    }
    await this.gate('checkWatches');
    return this.send(
      checkWatchesReply,
      (xid) => encodeWatchRemoval(xid, serverPath, type, false),
      path,
      undefined,
      options,
    );
  }

  private watchTypeArg(type: unknown, operation: string, path: string): void {
    if (type !== 'children' && type !== 'data' && type !== 'any') {
      throw new InvalidArgumentError('type', `must be 'children', 'data' or 'any'`, { operation, path });
    }
  }

  // ---- session ----------------------------------------------------------------------------------------

  /** Adds credentials to this connection and every later one (`digest` with `user:password`). */
  addAuth(scheme: string, credentials: Uint8Array | string, _options?: CallOptions): Promise<void> {
    if (typeof scheme !== 'string' || scheme === '') {
      return Promise.reject(
        new InvalidArgumentError('scheme', 'must be a non-empty string', { operation: 'addAuth' }),
      );
    }
    if (typeof credentials !== 'string' && !(credentials instanceof Uint8Array)) {
      return Promise.reject(
        new InvalidArgumentError('credentials', 'must be a string or bytes', { operation: 'addAuth' }),
      );
    }
    return this.session.addAuth(scheme, credentials);
  }

  /** Connection state events as an async iterable (ends when the client closes). */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<ConnectionState> {
    return this.session.states(options.signal);
  }

  /** Sends closeSession, waits for its reply, and ends the client. Idempotent. */
  close(): Promise<void> {
    return this.session.close();
  }

  /** `await using client = await connect(...)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Creates a client; it starts connecting at once. */
export function createClient(options: ClientOptions): ZooKeeperClient {
  return new ZooKeeperClient(options);
}

/** Creates a client and resolves once it is connected (`options.signal` / `timeoutMs` bound the wait). */
export async function connect(options: ClientOptions, callOptions?: CallOptions): Promise<ZooKeeperClient> {
  const client = new ZooKeeperClient(options);
  try {
    await client.connected(callOptions);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}
