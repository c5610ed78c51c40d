/**
 * @zkwire/zk-wire-client: a ZooKeeper client for Node.js, written from the wire up.
 * @packageDocumentation
 */
export { ChrootView, type ClientApi } from './client/chroot-view.js';
export {
  type ClientEventMap,
  connect,
  createClient,
  type WatchOptions,
  ZooKeeperClient,
} from './client/client.js';
export {
  clientAddresses,
  configToConnectString,
  type EnsembleConfig,
  type EnsembleMember,
  parseEnsembleConfig,
} from './client/ensemble-config.js';
export { op, readOp } from './client/op-builders.js';
export type { CreateResult } from './protocol/create.js';
export type { GetACLResult } from './protocol/get-acl.js';
export type { GetChildren2Result } from './protocol/get-children.js';
export type { GetDataResult } from './protocol/get-data.js';
export type { ConfigResult } from './protocol/reconfig.js';
export { formatPerms, parsePerms, saslAcl, x509Acl } from './security/acl-ids.js';
export {
  isSaslAuthenticationError,
  SaslAuthenticationError,
  SaslFailure,
  type SaslFailureReason,
} from './security/sasl-error.js';
export {
  registerSaslAuthenticator,
  type SaslAuthenticator,
  type SaslAuthenticatorFactory,
  type SaslChannel,
} from './security/sasl-hook.js';
export { isTlsError, TlsError, TlsFailure, type TlsFailureReason } from './security/tls-error.js';
export { DnsSrvLookupError, type DnsSrvLookupFailure, isDnsSrvLookupError } from './session/dns-srv-error.js';
export { decodeSessionHandoff, encodeSessionHandoff, NoSessionError } from './session/handoff.js';
export { acls, digestId, Perms } from './util/acl.js';
export { DEFAULT_QUEUE_CAPACITY, EventOverflowError } from './util/async-queue.js';
export { type ConnectString, parseConnectString } from './util/connect-string.js';
export {
  ChannelName,
  type ConnectMessage,
  type ReadPacingMessage,
  type RequestTraceContext,
  type StateMessage,
  type WatchEventMessage,
} from './util/diagnostics.js';
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
} from './util/errors.js';
export type { Op, OpResult, ReadOp, ReadOutcome, ReadResult } from './util/multi-types.js';
export { paths } from './util/paths.js';
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
} from './util/retry.js';
export type {
  ACL,
  CallOptions,
  ClientInfo,
  ClientOptions,
  ConnectionState,
  CreateMode,
  CreateOptions,
  Data,
  HostAddress,
  Id,
  Logger,
  LogLevel,
  ReadCoalescingOptions,
  SaslOptions,
  SessionHandoff,
  SessionState,
  Stat,
  WatchEvent,
  WatchEventType,
  Watcher,
  WatchType,
} from './util/types.js';
