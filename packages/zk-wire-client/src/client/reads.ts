/**
 * The read calls of the client (getData, exists, getChildren, ACLs, counts, sync, whoAmI, multiRead), each
 * read's one-shot watch armed by the same request, and the ensemble's configuration (getConfig, reconfig).
 */
import { CONFIG_NODE, configWatchKey } from '../protocol/config-watch.js';
import { encodeExists, existsReply } from '../protocol/exists.js';
import { encodeGetACL, type GetACLResult, getACLReply } from '../protocol/get-acl.js';
import {
  encodeGetAllChildrenNumber,
  getAllChildrenNumberReply,
} from '../protocol/get-all-children-number.js';
import {
  encodeGetChildren,
  type GetChildren2Result,
  getChildren2Reply,
  getChildrenReply,
} from '../protocol/get-children.js';
import { getConfigReply } from '../protocol/get-config.js';
import { encodeGetData, type GetDataResult, getDataReply } from '../protocol/get-data.js';
import { encodeGetEphemerals, getEphemeralsReply } from '../protocol/get-ephemerals.js';
import { encodeMultiRead, multiReadReply } from '../protocol/multi.js';
import { type ConfigResult, encodeReconfig, reconfigReply } from '../protocol/reconfig.js';
import { encodeSync, syncReply } from '../protocol/sync.js';
import { encodeWhoAmI, whoAmIReply } from '../protocol/who-am-i.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { CallOptions, ClientInfo, ReadOp, ReadOutcome, Stat, Watcher } from '../util/types.js';
import { ClientBase, type WatchOptions } from './base.js';
import { multiReadArgs } from './multi-args.js';

/** Reads on top of {@link ClientBase}; use {@link ZooKeeperClient}. */
export class ClientReads extends ClientBase {
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
  getAllChildrenNumber(path: string, options?: CallOptions): Promise<number> {
    try {
      const serverPath = this.core.serverPath(path, 'getAllChildrenNumber');
      const xid = this.core.begin();
      const frame = encodeGetAllChildrenNumber(xid, serverPath);
      return this.core.submitGated(
        'getAllChildrenNumber',
        getAllChildrenNumberReply,
        xid,
        frame,
        path,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** This session's ephemeral nodes whose path starts with `prefix` (default all), as client paths (3.6.0+). */
  getEphemerals(prefix = '/', options?: CallOptions): Promise<string[]> {
    try {
      if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
        throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
          operation: 'getEphemerals',
        });
      }
      const xid = this.core.begin();
      const frame = encodeGetEphemerals(xid, this.session.chroot.toServer(prefix));
      return this.core.submitGated(
        'getEphemerals',
        getEphemeralsReply,
        xid,
        frame,
        prefix,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
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
   * The ensemble's dynamic configuration (`/zookeeper/config`, read outside the chroot, as Java's getConfig;
   * parse it with `parseEnsembleConfig`). `watch` fires on the next change, with the path
   * `/zookeeper/config` whatever the chroot (see protocol/config-watch.ts).
   */
  getConfig(options?: WatchOptions): Promise<GetDataResult> {
    try {
      const core = this.core;
      const watcher = core.watcherArg(options?.watch, 'getConfig', CONFIG_NODE);
      const xid = core.begin();
      const key = configWatchKey(this.session.chroot);
      const frame = encodeGetData(xid, CONFIG_NODE, this.arms(watcher, 'data', key));
      return core.submit(getConfigReply, xid, frame, CONFIG_NODE, watcher, options);
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
  whoAmI(options?: CallOptions): Promise<ClientInfo[]> {
    try {
      const xid = this.core.begin();
      return this.core.submitGated(
        'whoAmI',
        whoAmIReply,
        xid,
        encodeWhoAmI(xid),
        undefined,
        undefined,
        options,
      );
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs reads in one request (server 3.6.0+); each op resolves or fails on its own. An empty list is
   * answered locally with [], in its place.
   */
  multiRead(ops: ReadOp[], options?: CallOptions): Promise<ReadOutcome[]> {
    try {
      const checked = multiReadArgs(this.core, ops);
      const xid = this.core.begin();
      const frame = encodeMultiRead(xid, checked);
      if (checked.length === 0) {
        return this.core.submit(multiReadReply, xid, frame, undefined, checked, options, (request) => {
          request.local = { value: [] };
        });
      }
      return this.core.submitGated('multiRead', multiReadReply, xid, frame, undefined, checked, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
