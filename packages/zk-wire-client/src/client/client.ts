/**
 * The public API: {@link ZooKeeperClient} and the ways to make one (`createClient`, and `connect`, which also
 * waits for the connection, at the end of this file). The client composes its parts: the session (state
 * machine, pipeline, hosts, auth, watches), the calls' plumbing ({@link ClientCore}: path checks, submission
 * in call order), and ensemble tracking. Each call checks its arguments, maps the path into the chroot,
 * builds its frame (protocol/*) and takes its place in the session's pipeline; most are one {@link CallKind}
 * (call-kinds.ts) made by `ClientCore.call`, the others a function of their own file (create-calls.ts,
 * delete-call.ts, multi-calls.ts, add-auth.ts, server-list.ts, watch-api.ts). Calls never throw
 * synchronously: every failure is a rejected promise with a typed error.
 */
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { CONFIG_NODE } from '../protocol/config-watch.js';
import { createPathReply, createReply } from '../protocol/create.js';
import type { GetACLResult } from '../protocol/get-acl.js';
import type { GetChildren2Result } from '../protocol/get-children.js';
import type { GetDataResult } from '../protocol/get-data.js';
import type { ConfigResult } from '../protocol/reconfig.js';
import type { AddWatchModeName } from '../protocol/reply-decoder.js';
import { sessionHandoff } from '../session/handoff.js';
import { Session } from '../session/session.js';
import { loggerArg } from '../util/logger.js';
import type { Op, OpResult, ReadOp, ReadOutcome } from '../util/multi-types.js';
import type {
  ACL,
  CallOptions,
  ClientInfo,
  ClientOptions,
  ConnectionState,
  CreateOptions,
  Data,
  Logger,
  SessionHandoff,
  SessionState,
  Stat,
  WatchEvent,
  Watcher,
  WatchType,
} from '../util/types.js';
import { addAuthCall } from './add-auth.js';
import * as kind from './call-kinds.js';
import { ChrootView } from './chroot-view.js';
import type { ClientEventMap, WatchOptions } from './client-types.js';
import { ClientCore } from './core.js';
import { createNode, createProtectedNode } from './create-calls.js';
import { deleteNode } from './delete-call.js';
import { type EnsembleConfig, formatAddress } from './ensemble-config.js';
import type { EnsembleTracker } from './ensemble-tracker.js';
import { logSessionEvents } from './logging.js';
import { multiCall, multiReadCall } from './multi-calls.js';
import { replaceServerList, updateServerList } from './server-list.js';
import { forwardSessionEvents } from './session-events.js';
import { ensembleTrackerFor } from './tracking.js';
import { deleteRecursive, ensurePath } from './tree-helpers.js';
import { waitConnected } from './wait-connected.js';
import { addWatch, checkWatches, removeWatches, watchPersistent } from './watch-api.js';

export type { ClientEventMap, WatchOptions } from './client-types.js';

/** A ZooKeeper client: one session over a sequence of connections. */
export class ZooKeeperClient extends EventEmitter<ClientEventMap> implements AsyncDisposable {
  private readonly session: Session;
  private readonly core: ClientCore;
  /** The `logger` option (undefined when none): recipes and queues log their swallowed errors there too. */
  readonly logger: Logger | undefined;
  private readonly tracker: EnsembleTracker | undefined;

  /** Use `createClient` or `connect`. */
  constructor(options: ClientOptions) {
    super();
    const logger = loggerArg(options.logger);
    this.logger = logger;
    this.session = new Session(options);
    if (logger !== undefined) logSessionEvents(this.session, logger);
    this.core = new ClientCore(this.session, options.maxDataLength);
    forwardSessionEvents(this.session, this, logger);
    this.tracker = ensembleTrackerFor(options.ensembleTracking, this, this.session, (hosts) =>
      replaceServerList(this.session, hosts),
    );
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
  get chrootPrefix(): string {
    return this.session.chroot.prefix;
  }

  /**
   * A view of this client under `root` (an absolute path; `/` is this client's own root): the same API with
   * paths, results and events relative to `root`, sharing this session and connection. Closing the view
   * removes its watches and listeners, never the session. Throws InvalidArgumentError for a bad root.
   */
  chroot(root: string): ChrootView {
    return new ChrootView(this, root);
  }

  /** The servers the client connects to (`host:port`), in the order connection attempts take them. */
  get serverList(): string[] {
    return this.session.hostList.map(formatAddress);
  }

  /** With `ensembleTracking`: the last ensemble configuration the client applied (undefined before). */
  get ensembleConfig(): EnsembleConfig | undefined {
    return this.tracker?.config;
  }

  /**
   * Replaces the servers the client connects to (Java's `ZooKeeper.updateServerList`), for applications
   * that follow the ensemble themselves. The session moves to another server only when rebalancing says
   * so: always when its server is no longer listed, with the probability that evens the load when servers
   * were added (a move closes the connection: calls in flight fail with ConnectionLoss, the session stays).
   * A chroot in `connectString` must be the client's own. Returns whether this client moves.
   */
  updateServerList(connectString: string): boolean {
    return updateServerList(this.session, connectString);
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

  /** The node's data and Stat; `watch` fires on dataChanged or deleted. */
  getData(path: string, options?: WatchOptions): Promise<GetDataResult> {
    return this.core.call(kind.GET_DATA, path, undefined, options);
  }

  /** The node's Stat, or null when it does not exist; `watch` fires on created, dataChanged or deleted. */
  exists(path: string, options?: WatchOptions): Promise<Stat | null> {
    return this.core.call(kind.EXISTS, path, undefined, options);
  }

  /** The names of the node's children (unordered); `watch` fires on childrenChanged or deleted. */
  getChildren(path: string, options?: WatchOptions): Promise<string[]> {
    return this.core.call(kind.GET_CHILDREN, path, undefined, options);
  }

  /** The children and the node's own Stat. */
  getChildren2(path: string, options?: WatchOptions): Promise<GetChildren2Result> {
    return this.core.call(kind.GET_CHILDREN2, path, undefined, options);
  }

  /** The node's ACL and Stat. */
  getACL(path: string, options?: CallOptions): Promise<GetACLResult> {
    return this.core.call(kind.GET_ACL, path, undefined, options);
  }

  /** The number of all descendants of the node (server 3.6.0+). */
  getAllChildrenNumber(path: string, options?: CallOptions): Promise<number> {
    return this.core.call(kind.GET_ALL_CHILDREN_NUMBER, path, undefined, options);
  }

  /** This session's ephemeral nodes whose path starts with `prefix` (default all), as client paths (3.6.0+). */
  getEphemerals(prefix = '/', options?: CallOptions): Promise<string[]> {
    return this.core.call(kind.GET_EPHEMERALS, prefix, undefined, options);
  }

  /** Makes the connected server catch up with the leader for this path. */
  sync(path: string, options?: CallOptions): Promise<void> {
    return this.core.call(kind.SYNC, path, undefined, options);
  }

  /**
   * The ensemble's dynamic configuration (`/zookeeper/config`, read outside the chroot, as Java's getConfig;
   * parse it with `parseEnsembleConfig`). `watch` fires on the next change, with the path
   * `/zookeeper/config` whatever the chroot (see protocol/config-watch.ts).
   */
  getConfig(options?: WatchOptions): Promise<GetDataResult> {
    return this.core.call(kind.GET_CONFIG, CONFIG_NODE, undefined, options);
  }

  /**
   * Changes the ensemble's membership (server 3.5.0+ with reconfigEnabled): servers joining and leaving
   * (incremental), or the whole member list; `fromConfig` (default -1, any) must be the current config version.
   * Resolves with the new config.
   */
  reconfig(changes: kind.ReconfigChanges, options?: CallOptions): Promise<ConfigResult> {
    return this.core.call(kind.RECONFIG, CONFIG_NODE, changes, options);
  }

  /** The identities of this connection (server 3.7.0+). */
  whoAmI(options?: CallOptions): Promise<ClientInfo[]> {
    return this.core.call(kind.WHO_AM_I, undefined, undefined, options);
  }

  /**
   * Runs reads in one request (server 3.6.0+); each op resolves or fails on its own. An empty list is
   * answered locally with [], in its place.
   */
  multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    return multiReadCall(this.core, ops, options);
  }

  // ---- writes -----------------------------------------------------------------------------------------

  /** Creates a node and resolves with its actual path (with the sequence suffix for sequential modes). */
  create(path: string, data?: Data, options?: CreateOptions): Promise<string> {
    if (options?.protected) return createProtectedNode(this, path, data, options).then((r) => r.path);
    return createNode(this, this.core, createPathReply, path, data, options, false);
  }

  /** Creates a node and resolves with its actual path and its Stat. */
  create2(path: string, data?: Data, options?: CreateOptions): Promise<{ path: string; stat: Stat }> {
    if (options?.protected) return createProtectedNode(this, path, data, options);
    return createNode(this, this.core, createReply, path, data, options, true);
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

  /**
   * Deletes a node; `version` (default -1 = any) must match its data version. With `guaranteed` (Curator's
   * `guaranteed()`), a delete met by connection loss is retried until the node is known gone; `signal` and
   * `timeoutMs` then end only the wait (several requests: outside the order promise).
   */
  delete(path: string, options?: CallOptions & { version?: number; guaranteed?: boolean }): Promise<void> {
    return deleteNode(this, this.core, path, options);
  }

  /** Deletes a node and its whole subtree, children first; nodes already gone are fine. */
  deleteRecursive(path: string, options?: CallOptions): Promise<void> {
    return deleteRecursive(this, path, options);
  }

  /** Replaces the node's data; `version` (default -1 = any) must match. Resolves with the new Stat. */
  setData(path: string, data: Data, options?: kind.VersionOptions): Promise<Stat> {
    return this.core.call(kind.SET_DATA, path, data, options);
  }

  /** Replaces the node's ACL; `version` (default -1) must match its aversion. Resolves with the new Stat. */
  setACL(path: string, acl: ACL[], options?: kind.VersionOptions): Promise<Stat> {
    return this.core.call(kind.SET_ACL, path, acl, options);
  }

  /**
   * Runs ops atomically. Resolves with one result per op; on failure rejects with MultiError, whose
   * `results` holds the error of each op (the failing one, and RUNTIMEINCONSISTENCY / OK for the others).
   */
  multi(ops: Op[], options?: CallOptions): Promise<OpResult[]> {
    return multiCall(this.core, ops, options);
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
  removeWatches(
    path: string,
    type: WatchType,
    options: CallOptions & { watcher?: Watcher; local?: boolean } = {},
  ): Promise<void> {
    return removeWatches(this.core, path, type, options);
  }

  /** Checks that the server holds a watch of the type at the path for this connection (NoWatcher if not). */
  checkWatches(
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
    return addAuthCall(this.session, scheme, credentials, options);
  }

  /** Connection state events as an async iterable (ends when the client closes). */
  states(options: { signal?: AbortSignal } = {}): AsyncIterable<ConnectionState> {
    return this.session.states(options.signal);
  }

  /**
   * Hands the session on: ends this client without closing its session, and resolves with what
   * `connect({ session })` needs to resume it, in another worker thread (`postMessage` it as it is) or process
   * (`encodeSessionHandoff`), before `timeoutMs` passes. The session's ephemeral nodes stay. Calls already
   * made get their answers before the connection is let go; after the detach every call fails with
   * ClientClosedError and watchers and listeners get nothing more (the server drops its watches with the
   * connection). Rejects with NoSessionError before a session was granted, and with the client's error
   * when it is closed or expired; the client is unchanged then.
   */
  async detach(): Promise<SessionHandoff> {
    try {
      const { id, password, timeoutMs } = await this.session.detach();
      return sessionHandoff(id, password, timeoutMs);
    } finally {
      // Refused, the client is as it was; otherwise it has ended, even when the session ended meanwhile.
      if (this.session.isTerminal) this.tracker?.close();
    }
  }

  /** Sends closeSession, waits for its reply, and ends the client. Idempotent. */
  close(): Promise<void> {
    this.tracker?.close();
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
