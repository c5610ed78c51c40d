/**
 * @zkwire/zk-wire-client: a ZooKeeper client for Node.js, written from the wire up.
 * @packageDocumentation
 */
export { type ACL, acls, digestId, type Id, Perms } from './acl.js';
export { DEFAULT_QUEUE_CAPACITY, EventOverflowError } from './async-queue.js';
export { type ClientEventMap, connect, createClient, type WatchOptions, ZooKeeperClient } from './client.js';
export { type ConnectString, type HostAddress, parseConnectString } from './connect-string.js';
export {
  ChannelName,
  type ConnectMessage,
  type ReadPacingMessage,
  type RequestTraceContext,
  type StateMessage,
  type WatchEventMessage,
} from './diagnostics.js';
export {
  clientAddresses,
  configToConnectString,
  type EnsembleConfig,
  type EnsembleMember,
  parseEnsembleConfig,
} from './ensemble-config.js';
export {
  AuthFailedError,
  BadArgumentsError,
  BadVersionError,
  ClientClosedError,
  ConnectionLossError,
  ErrorCode,
  type ErrorCodeInfo,
  type ErrorContext,
  errorFromCode,
  errorInfo,
  InvalidACLError,
  InvalidArgumentError,
  isBadVersion,
  isClientClosed,
  isConnectionLoss,
  isNoAuth,
  isNodeExists,
  isNoNode,
  isNotEmpty,
  isNoWatcher,
  isOperationTimeout,
  isSessionExpired,
  MultiError,
  NoAuthError,
  NoChildrenForEphemeralsError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  NotReadOnlyError,
  NoWatcherError,
  OperationTimeoutError,
  ProtocolError,
  SessionExpiredError,
  UnimplementedError,
  UnsupportedByServerError,
  ZooKeeperError,
} from './errors.js';
export type { Logger, LogLevel } from './logger.js';
export { op, readOp } from './op-builders.js';
export type { CreateResult } from './ops/create.js';
export type { GetACLResult } from './ops/get-acl.js';
export type { GetChildren2Result } from './ops/get-children.js';
export type { GetDataResult } from './ops/get-data.js';
export type { ConfigResult } from './ops/reconfig.js';
export { paths } from './paths.js';
export type { ReadCoalescingOptions } from './read-pacing.js';
export {
  BoundedExponentialBackoffRetry,
  ExponentialBackoffRetry,
  isRetryable,
  RetryForever,
  RetryNTimes,
  RetryOneTime,
  type RetryPolicy,
  RetryUntilElapsed,
  retry,
} from './retry.js';
export {
  registerSaslAuthenticator,
  type SaslAuthenticator,
  type SaslAuthenticatorFactory,
  type SaslChannel,
} from './sasl-hook.js';
// TLS, SASL and x509/SASL ACL helpers (owned by the security work).
export * from './security/index.js';
export type {
  CallOptions,
  ClientInfo,
  ClientOptions,
  ConnectionState,
  CreateMode,
  CreateOptions,
  Data,
  Op,
  OpResult,
  ReadOp,
  ReadOutcome,
  ReadResult,
  SaslOptions,
  SessionState,
  Stat,
  WatchEvent,
  WatchEventType,
  Watcher,
  WatchType,
} from './types.js';
