/**
 * The public API: {@link createClient}, {@link connect} and {@link ZooKeeperClient}. Each call checks its
 * arguments, maps the path into the chroot, builds its frame (ops/*) and hands it to the session's pipeline.
 * Calls never throw synchronously: every failure is a rejected promise with a typed error.
 */
import { EventEmitter } from 'node:events';
import type { ACL } from './acl.js';
import { aclArg, dataBytes, versionArg } from './args.js';
import { boundedWait } from './bounded-wait.js';
import { ClientCore } from './client-core.js';
import { InvalidArgumentError, isNoNode } from './errors.js';
import { multiArgs, multiReadArgs } from './multi-args.js';
import type { AddWatchModeName } from './ops/add-watch.js';
import { type CreateResult, createReply, encodeCreate } from './ops/create.js';
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
import { type ConfigResult, encodeReconfig, reconfigReply } from './ops/reconfig.js';
import { encodeSetACL, setACLReply } from './ops/set-acl.js';
import { encodeSetData, setDataReply } from './ops/set-data.js';
import { encodeSync, syncReply } from './ops/sync.js';
import { encodeWhoAmI, whoAmIReply } from './ops/who-am-i.js';
import { parent } from './paths.js';
import { Session } from './session.js';
import { deleteRecursive, ensurePath } from './tree-helpers.js';
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
import { waitConnected } from './wait-connected.js';
import { addWatch, checkWatches, removeWatches, watchPersistent } from './watch-api.js';

/** The node holding the ensemble's dynamic configuration. */
const CONFIG_NODE = '/zookeeper/config';

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
  private readonly core: ClientCore;

  /** Use {@link createClient} or {@link connect}. */
  constructor(options: ClientOptions) {
    super();
    this.session = new Session(options);
    this.core = new ClientCore(this.session, options.maxDataLength);
    this.session.on('state', (state) => {
      try {
        this.emit('state', state);
      } catch (error) {
        // A throwing listener is the application's bug: it surfaces as usual, but outside the session's
        // bookkeeping, which must not stop halfway.
        queueMicrotask(() => {
          throw error;
        });
      }
    });
    this.session.on('watcherError', (error, event) => {
      // Nobody listening: say so on stderr (a process warning) rather than lose the watcher's failure.
      if (this.listenerCount('watcherError') === 0) {
        process.emitWarning(`A ZooKeeper watcher threw on ${event.type} ${event.path}: ${String(error)}`, {
          code: 'ZKWIRE_WATCHER_ERROR',
        });
      } else {
        this.emit('watcherError', error, event);
      }
    });
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

  /** The server path of a client path (the chroot added), e.g. to compare with paths other clients see. */
  toServerPath(path: string): string {
    return this.core.serverPath(path, 'toServerPath');
  }
  /** The client path of a server path (the chroot removed; paths outside it come back unchanged). */
  toClientPath(serverPath: string): string {
    return this.session.chroot.toClient(serverPath);
  }

  /** Resolves once connected (r/w, or read-only when allowed); rejects when closed or expired. */
  connected(options?: CallOptions): Promise<void> {
    return waitConnected(this.session, options);
  }

  // ---- reads ------------------------------------------------------------------------------------------

  /** Whether a read with this watcher arms a server watch (see WatchTables.coveredByPersistent). */
  private arms(watcher: Watcher | undefined, kind: 'data' | 'child', path: string): boolean {
    return watcher !== undefined && !this.session.watches.coveredByPersistent(kind, path);
  }

  /** The node's data and Stat; `watch` fires on dataChanged or deleted. */
  getData(path: string, options?: WatchOptions): Promise<GetDataResult> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'getData');
      const watcher = core.watcherArg(options?.watch, 'getData', path);
      const xid = core.begin();
      const frame = encodeGetData(xid, serverPath, this.arms(watcher, 'data', path));
      return core.submit(getDataReply, xid, frame, path, watcher, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The node's Stat, or null when it does not exist; `watch` fires on created, dataChanged or deleted. */
  exists(path: string, options?: WatchOptions): Promise<Stat | null> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'exists');
      const watcher = core.watcherArg(options?.watch, 'exists', path);
      const xid = core.begin();
      const frame = encodeExists(xid, serverPath, this.arms(watcher, 'data', path));
      return core.submit(existsReply, xid, frame, path, watcher, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The names of the node's children (unordered); `watch` fires on childrenChanged or deleted. */
  getChildren(path: string, options?: WatchOptions): Promise<string[]> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'getChildren');
      const watcher = core.watcherArg(options?.watch, 'getChildren', path);
      const xid = core.begin();
      const frame = encodeGetChildren(xid, serverPath, this.arms(watcher, 'child', path), false);
      return core.submit(getChildrenReply, xid, frame, path, watcher, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The children and the node's own Stat. */
  getChildren2(path: string, options?: WatchOptions): Promise<GetChildren2Result> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'getChildren2');
      const watcher = core.watcherArg(options?.watch, 'getChildren2', path);
      const xid = core.begin();
      const frame = encodeGetChildren(xid, serverPath, this.arms(watcher, 'child', path), true);
      return core.submit(getChildren2Reply, xid, frame, path, watcher, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The node's ACL and Stat. */
  getACL(path: string, options?: CallOptions): Promise<GetACLResult> {
    try {
      const serverPath = this.core.serverPath(path, 'getACL');
      const xid = this.core.begin();
      return this.core.submit(getACLReply, xid, encodeGetACL(xid, serverPath), path, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The number of all descendants of the node (server 3.6.0+). */
  async getAllChildrenNumber(path: string, options?: CallOptions): Promise<number> {
    const serverPath = this.core.serverPath(path, 'getAllChildrenNumber');
    return this.core.gated('getAllChildrenNumber', () => {
      const xid = this.core.begin();
      const frame = encodeGetAllChildrenNumber(xid, serverPath);
      return this.core.submit(getAllChildrenNumberReply, xid, frame, path, undefined, options);
    });
  }

  /** This session's ephemeral nodes whose path starts with `prefix` (default all), as client paths (3.6.0+). */
  async getEphemerals(prefix = '/', options?: CallOptions): Promise<string[]> {
    if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
      throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
        operation: 'getEphemerals',
      });
    }
    return this.core.gated('getEphemerals', () => {
      const xid = this.core.begin();
      const frame = encodeGetEphemerals(xid, this.session.chroot.toServer(prefix));
      return this.core.submit(getEphemeralsReply, xid, frame, prefix, undefined, options);
    });
  }

  /** Makes the connected server catch up with the leader for this path. */
  sync(path: string, options?: CallOptions): Promise<void> {
    try {
      const serverPath = this.core.serverPath(path, 'sync');
      const xid = this.core.begin();
      return this.core.submit(syncReply, xid, encodeSync(xid, serverPath), path, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The ensemble's dynamic configuration (`/zookeeper/config`, read outside the chroot, as Java's getConfig).
   * A watch is allowed only without a chroot: watches are kept under client paths.
   */
  getConfig(options?: WatchOptions): Promise<GetDataResult> {
    try {
      const core = this.core;
      const watcher = core.watcherArg(options?.watch, 'getConfig', CONFIG_NODE);
      if (watcher !== undefined && this.session.chroot.prefix !== '') {
        throw new InvalidArgumentError('watch', 'a config watch needs a client without chroot', {
          operation: 'getConfig',
        });
      }
      const xid = core.begin();
      const frame = encodeGetData(xid, CONFIG_NODE, this.arms(watcher, 'data', CONFIG_NODE));
      return core.submit(getDataReply, xid, frame, CONFIG_NODE, watcher, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Changes the ensemble's membership (server 3.5.0+ with reconfigEnabled): servers joining and leaving
   * (incremental), or the whole member list; `fromConfig` (default -1, any) must be the current config version.
   * Resolves with the new config.
   */
  reconfig(
    changes: {
      joining?: string[] | string;
      leaving?: string[] | string;
      members?: string[] | string;
      fromConfig?: bigint;
    },
    options?: CallOptions,
  ): Promise<ConfigResult> {
    try {
      const list = (value: string[] | string | undefined, name: string): string | null => {
        if (value === undefined) return null;
        if (typeof value === 'string') return value;
        if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
        throw new InvalidArgumentError(name, 'must be a string or an array of strings', {
          operation: 'reconfig',
        });
      };
      const fromConfig = changes?.fromConfig ?? -1n;
      if (typeof fromConfig !== 'bigint') {
        throw new InvalidArgumentError('fromConfig', 'must be a bigint', { operation: 'reconfig' });
      }
      const args = {
        joining: list(changes.joining, 'joining'),
        leaving: list(changes.leaving, 'leaving'),
        members: list(changes.members, 'members'),
        fromConfig,
      };
      if (args.members !== null && (args.joining !== null || args.leaving !== null)) {
        throw new InvalidArgumentError('members', 'cannot be combined with joining or leaving', {
          operation: 'reconfig',
        });
      }
      const xid = this.core.begin();
      return this.core.submit(reconfigReply, xid, encodeReconfig(xid, args), CONFIG_NODE, undefined, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The identities of this connection (server 3.7.0+). */
  async whoAmI(options?: CallOptions): Promise<ClientInfo[]> {
    return this.core.gated('whoAmI', () => {
      const xid = this.core.begin();
      return this.core.submit(whoAmIReply, xid, encodeWhoAmI(xid), undefined, undefined, options);
    });
  }

  // ---- writes -----------------------------------------------------------------------------------------

  /** Creates a node and resolves with its actual path (with the sequence suffix for sequential modes). */
  create(path: string, data?: Data, options?: CreateOptions): Promise<string> {
    return this.createNode(path, data, options, false).then((r) => r.path);
  }

  /** Creates a node and resolves with its actual path and its Stat. */
  create2(path: string, data?: Data, options?: CreateOptions): Promise<{ path: string; stat: Stat }> {
    return this.createNode(path, data, options, true);
  }

  private createNode(
    path: string,
    data: Data,
    options: CreateOptions | undefined,
    withStat: boolean,
  ): Promise<CreateResult> {
    try {
      const operation = withStat ? 'create2' : 'create';
      const args = this.core.createArgs(path, data, options, operation);
      // Checked now, so that a bad parentAcl is refused before anything is sent.
      const parentAcl =
        options?.parentAcl === undefined
          ? undefined
          : aclArg(options.parentAcl, operation, path, 'parentAcl');
      const attempt = () => {
        const xid = this.core.begin();
        return this.core.submit(
          createReply,
          xid,
          encodeCreate(xid, args, withStat),
          path,
          undefined,
          options,
        );
      };
      const parents = options?.createParents;
      if (!parents) return attempt();
      return attempt().catch(async (error: unknown) => {
        if (!isNoNode(error)) throw error;
        // Parents get `parentAcl` (default open), never the node's own `acl`.
        await this.ensurePath(parent(path), parents === 'container' ? 'container' : 'persistent', {
          signal: options?.signal,
          timeoutMs: options?.timeoutMs,
          acl: parentAcl,
        });
        return attempt();
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Creates every missing node of `path` (not only its parents), as persistent nodes or containers with
   * open ACLs unless `acl` is given. Nodes made concurrently by others are fine.
   */
  ensurePath(
    path: string,
    mode: 'persistent' | 'container' = 'persistent',
    options?: CallOptions & { acl?: ACL[] },
  ): Promise<void> {
    return ensurePath(this, path, mode, options);
  }

  /** Deletes a node; `version` (default -1 = any) must match its data version. */
  delete(path: string, options?: CallOptions & { version?: number }): Promise<void> {
    try {
      const serverPath = this.core.serverPath(path, 'delete');
      const version = versionArg(options?.version, 'delete', path);
      const xid = this.core.begin();
      return this.core.submit(
        deleteReply,
        xid,
        encodeDelete(xid, serverPath, version),
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Deletes a node and its whole subtree, children first; nodes already gone are fine. */
  deleteRecursive(path: string, options?: CallOptions): Promise<void> {
    return deleteRecursive(this, path, options);
  }

  /** Replaces the node's data; `version` (default -1 = any) must match. Resolves with the new Stat. */
  setData(path: string, data: Data, options?: CallOptions & { version?: number }): Promise<Stat> {
    try {
      const core = this.core;
      const serverPath = core.serverPath(path, 'setData');
      const bytes = dataBytes(data, core.maxDataLength, 'setData', path);
      const version = versionArg(options?.version, 'setData', path);
      const xid = core.begin();
      return core.submit(
        setDataReply,
        xid,
        encodeSetData(xid, serverPath, bytes, version),
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
      const serverPath = this.core.serverPath(path, 'setACL');
      const list = aclArg(acl, 'setACL', path);
      const version = versionArg(options?.version, 'setACL', path);
      const xid = this.core.begin();
      const frame = encodeSetACL(xid, serverPath, list, version);
      return this.core.submit(setACLReply, xid, frame, path, undefined, options);
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
      const checked = multiArgs(this.core, ops);
      if (checked.length === 0) return Promise.resolve([]);
      const xid = this.core.begin();
      return this.core.submit(multiReply, xid, encodeMulti(xid, checked), undefined, checked, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs reads in one request (server 3.6.0+); each op resolves or fails on its own. */
  async multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    const checked = multiReadArgs(this.core, ops);
    if (checked.length === 0) return [];
    return this.core.gated('multiRead', () => {
      const xid = this.core.begin();
      return this.core.submit(
        multiReadReply,
        xid,
        encodeMultiRead(xid, checked),
        undefined,
        checked,
        options,
      );
    });
  }

  // ---- watches ----------------------------------------------------------------------------------------

  /** Adds a persistent (or persistent-recursive) watch, which stays until removed (server 3.6.0+). */
  addWatch(path: string, mode: AddWatchModeName, watcher: Watcher, options?: CallOptions): Promise<void> {
    return addWatch(this.core, path, mode, watcher, options);
  }

  /**
   * Persistent watch events as an async iterable. The watch is added on the first read; breaking out of
   * the loop (or aborting `signal`) removes it. The loop ends when the client closes, and throws
   * SessionExpiredError when the session expires.
   */
  watchPersistent(
    path: string,
    options: { recursive?: boolean; signal?: AbortSignal } = {},
  ): AsyncIterable<WatchEvent> {
    return watchPersistent(this.core, path, options);
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
    return removeWatches(this.core, path, type, options);
  }

  /** Checks that the server holds a watch of the type at the path for this connection (NoWatcher if not). */
  async checkWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher } = {},
  ): Promise<void> {
    return checkWatches(this.core, path, type, options);
  }

  // ---- session ----------------------------------------------------------------------------------------

  /**
   * Adds credentials to this connection and every later one (`digest` with `user:password`), and resolves
   * when the server accepted them. An abort or `timeoutMs` (OperationTimeoutError) stops the wait only: the
   * credentials stay saved. A close, an expiry or a lost connection before the answer rejects the call.
   */
  addAuth(scheme: string, credentials: Uint8Array | string, options?: CallOptions): Promise<void> {
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
    if (options?.signal?.aborted) return Promise.reject(options.signal.reason);
    return boundedWait(this.session.addAuth(scheme, credentials), 'addAuth', options);
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

/** Creates a client and resolves once it is connected (`callOptions` bound the wait). */
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
