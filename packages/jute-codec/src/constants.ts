// Protocol constants as `as const` objects with derived union types (wire-protocol.md §3.2, §4, §6.1).

/** Request types (`ZooDefs.OpCode`). Numbers never changed between releases; new ones were only added. */
export const OpCode = {
  notification: 0,
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  ping: 11,
  getChildren2: 12,
  check: 13,
  multi: 14,
  create2: 15,
  reconfig: 16,
  checkWatches: 17,
  removeWatches: 18,
  createContainer: 19,
  deleteContainer: 20,
  createTTL: 21,
  multiRead: 22,
  auth: 100,
  setWatches: 101,
  sasl: 102,
  getEphemerals: 103,
  getAllChildrenNumber: 104,
  setWatches2: 105,
  addWatch: 106,
  whoAmI: 107,
  createSession: -10,
  closeSession: -11,
  error: -1,
} as const;
/** One of the {@link OpCode} values. */
export type OpCode = (typeof OpCode)[keyof typeof OpCode];

/** Reserved xids: notifications, pings, auth packets and (C-client style) set-watches. */
export const Xid = {
  NOTIFICATION: -1,
  PING: -2,
  AUTH: -4,
  SET_WATCHES: -8,
} as const;
/** One of the {@link Xid} values. */
export type Xid = (typeof Xid)[keyof typeof Xid];

/** The `flags` of a CreateRequest (Java `CreateMode`). */
export const CreateFlag = {
  PERSISTENT: 0,
  EPHEMERAL: 1,
  PERSISTENT_SEQUENTIAL: 2,
  EPHEMERAL_SEQUENTIAL: 3,
  CONTAINER: 4,
  PERSISTENT_WITH_TTL: 5,
  PERSISTENT_SEQUENTIAL_WITH_TTL: 6,
} as const;
/** One of the {@link CreateFlag} values. */
export type CreateFlag = (typeof CreateFlag)[keyof typeof CreateFlag];

/** `WatcherEvent.type`. The server sends only 1-4; the others are raised by client libraries. */
export const EventType = {
  None: -1,
  NodeCreated: 1,
  NodeDeleted: 2,
  NodeDataChanged: 3,
  NodeChildrenChanged: 4,
  DataWatchRemoved: 5,
  ChildWatchRemoved: 6,
  PersistentWatchRemoved: 7,
} as const;
/** One of the {@link EventType} values. */
export type EventType = (typeof EventType)[keyof typeof EventType];

/** `WatcherEvent.state` (Java `KeeperState`). The server always sends SyncConnected (3). */
export const KeeperState = {
  Unknown: -1,
  Disconnected: 0,
  NoSyncConnected: 1,
  SyncConnected: 3,
  AuthFailed: 4,
  ConnectedReadOnly: 5,
  SaslAuthenticated: 6,
  Closed: 7,
  Expired: -112,
} as const;
/** One of the {@link KeeperState} values. */
export type KeeperState = (typeof KeeperState)[keyof typeof KeeperState];

/** The `type` of checkWatches/removeWatches. Persistent and PersistentRecursive need a 3.9 server. */
export const WatcherType = {
  Children: 1,
  Data: 2,
  Any: 3,
  Persistent: 4,
  PersistentRecursive: 5,
} as const;
/** One of the {@link WatcherType} values. */
export type WatcherType = (typeof WatcherType)[keyof typeof WatcherType];

/** The `mode` of AddWatchRequest (3.6+). */
export const AddWatchMode = {
  PERSISTENT: 0,
  PERSISTENT_RECURSIVE: 1,
} as const;
/** One of the {@link AddWatchMode} values. */
export type AddWatchMode = (typeof AddWatchMode)[keyof typeof AddWatchMode];

/** ACL permission bits (`ZooDefs.Perms`). */
export const Perms = {
  READ: 1,
  WRITE: 2,
  CREATE: 4,
  DELETE: 8,
  ADMIN: 16,
  ALL: 31,
} as const;
/** One of the {@link Perms} values. */
export type Perms = (typeof Perms)[keyof typeof Perms];
