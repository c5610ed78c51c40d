/**
 * The calls of the client that are one request each, as {@link CallKind}s: the decoder of the reply, where
 * the path goes, the watch the call can arm, and its frame, written after the call's own arguments are
 * checked. {@link ClientCore.call} makes them.
 */
import { CONFIG_NODE, configWatchKey } from '../protocol/config-watch.js';
import { encodeExists, existsReply } from '../protocol/exists.js';
import { encodeGetACL, getACLReply } from '../protocol/get-acl.js';
import {
  encodeGetAllChildrenNumber,
  getAllChildrenNumberReply,
} from '../protocol/get-all-children-number.js';
import { encodeGetChildren, getChildren2Reply, getChildrenReply } from '../protocol/get-children.js';
import { getConfigReply } from '../protocol/get-config.js';
import { encodeGetData, getDataReply } from '../protocol/get-data.js';
import { encodeGetEphemerals, getEphemeralsReply } from '../protocol/get-ephemerals.js';
import { type ConfigResult, encodeReconfig, type ReconfigArgs, reconfigReply } from '../protocol/reconfig.js';
import { encodeSetACL, setACLReply } from '../protocol/set-acl.js';
import { encodeSetData, setDataReply } from '../protocol/set-data.js';
import { encodeSync, syncReply } from '../protocol/sync.js';
import { encodeWhoAmI, whoAmIReply } from '../protocol/who-am-i.js';
import { aclArg, dataBytes, versionArg } from '../util/args.js';
import { InvalidArgumentError } from '../util/errors.js';
import type { ACL, CallOptions, Data, Stat } from '../util/types.js';
import { callKind } from './core.js';

/** Options of the writes that take a version. */
export type VersionOptions = CallOptions & { version?: number };

/** The changes of a reconfig, as the caller gives them. */
export interface ReconfigChanges {
  joining?: string[] | string;
  leaving?: string[] | string;
  members?: string[] | string;
  fromConfig?: bigint;
}

// ---- reads ----------------------------------------------------------------------------------------------

export const GET_DATA = callKind({
  decoder: getDataReply,
  watch: 'data',
  encode: (xid, serverPath, arms) => encodeGetData(xid, serverPath, arms),
});

export const EXISTS = callKind({
  decoder: existsReply,
  watch: 'data',
  encode: (xid, serverPath, arms) => encodeExists(xid, serverPath, arms),
});

export const GET_CHILDREN = callKind({
  decoder: getChildrenReply,
  watch: 'child',
  encode: (xid, serverPath, arms) => encodeGetChildren(xid, serverPath, arms),
});

export const GET_CHILDREN2 = callKind({
  decoder: getChildren2Reply,
  watch: 'child',
  encode: (xid, serverPath, arms) => encodeGetChildren(xid, serverPath, arms),
});

export const GET_ACL = callKind({
  decoder: getACLReply,
  encode: (xid, serverPath) => encodeGetACL(xid, serverPath),
});

export const GET_ALL_CHILDREN_NUMBER = callKind({
  decoder: getAllChildrenNumberReply,
  gated: 'getAllChildrenNumber',
  encode: (xid, serverPath) => encodeGetAllChildrenNumber(xid, serverPath),
});

/** The path is a prefix of ephemeral paths, not a node's: it is only mapped into the chroot. */
export const GET_EPHEMERALS = callKind({
  decoder: getEphemeralsReply,
  chrooted: false,
  gated: 'getEphemerals',
  encode: (xid, prefix, _arms, _arg, _options, _path, core) => {
    if (typeof prefix !== 'string' || !prefix.startsWith('/')) {
      throw new InvalidArgumentError('prefix', 'must be a string starting with "/"', {
        operation: 'getEphemerals',
      });
    }
    return encodeGetEphemerals(xid, core.session.chroot.toServer(prefix));
  },
});

export const SYNC = callKind({
  decoder: syncReply,
  encode: (xid, serverPath) => encodeSync(xid, serverPath),
});

/** `/zookeeper/config`, read outside the chroot as Java's getConfig; its watch has a key of its own. */
export const GET_CONFIG = callKind({
  decoder: getConfigReply,
  chrooted: false,
  watch: 'data',
  watchKey: (core) => configWatchKey(core.session.chroot),
  encode: (xid, _path, arms) => encodeGetData(xid, CONFIG_NODE, arms),
});

export const WHO_AM_I = callKind({
  decoder: whoAmIReply,
  chrooted: false,
  gated: 'whoAmI',
  encode: (xid) => encodeWhoAmI(xid),
});

export const RECONFIG = callKind<ConfigResult, ReconfigChanges>({
  decoder: reconfigReply,
  chrooted: false,
  encode: (xid, _path, _arms, changes) => encodeReconfig(xid, reconfigArgs(changes)),
});

// ---- writes ---------------------------------------------------------------------------------------------

export const SET_DATA = callKind<Stat, Data, VersionOptions>({
  decoder: setDataReply,
  encode: (xid, serverPath, _arms, data, options, path, core) => {
    const bytes = dataBytes(data, core.maxDataLength, 'setData', path);
    return encodeSetData(xid, serverPath, bytes, versionArg(options?.version, 'setData', path));
  },
});

export const SET_ACL = callKind<Stat, ACL[], VersionOptions>({
  decoder: setACLReply,
  encode: (xid, serverPath, _arms, acl, options, path) => {
    const list = aclArg(acl, 'setACL', path);
    return encodeSetACL(xid, serverPath, list, versionArg(options?.version, 'setACL', path));
  },
});

/** A reconfig's changes checked and joined as the request carries them. */
function reconfigArgs(changes: ReconfigChanges): ReconfigArgs {
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
  return args;
}
