/**
 * Typed errors of the client.
 *
 * Every error the client raises is a {@link ZooKeeperError}: a stable string `code` (the Java
 * `KeeperException.Code` name for server codes), the numeric server code `errno`, and where known the `path`
 * and the `operation`. Callers branch on the subclasses or on the guards (`isNoNode(e)`, ...); both work across
 * an ESM and a CJS copy of this package because they test a `Symbol.for` marker and the code, not the class.
 */

const MARKER = Symbol.for('zkwire.ZooKeeperError');

/** One row of the server error table (wire-protocol.md §5). */
export interface ErrorCodeInfo {
  /** Stable string code, the Java `KeeperException.Code` name. */
  readonly code: string;
  /** Numeric code as sent by the server (or used client-side by the Java client). */
  readonly errno: number;
  /** Human-readable message. */
  readonly message: string;
  /** Whether a retry loop may repeat an idempotent call after this error (Curator's RetryLoop set). */
  readonly retryable: boolean;
}

const table: readonly ErrorCodeInfo[] = [
  { errno: -1, code: 'SYSTEMERROR', message: 'System error', retryable: false },
  { errno: -2, code: 'RUNTIMEINCONSISTENCY', message: 'Runtime inconsistency', retryable: false },
  { errno: -3, code: 'DATAINCONSISTENCY', message: 'Data inconsistency', retryable: false },
  { errno: -4, code: 'CONNECTIONLOSS', message: 'Connection lost', retryable: true },
  { errno: -5, code: 'MARSHALLINGERROR', message: 'Marshalling error', retryable: false },
  { errno: -6, code: 'UNIMPLEMENTED', message: 'Operation not implemented by the server', retryable: false },
  { errno: -7, code: 'OPERATIONTIMEOUT', message: 'Operation timed out', retryable: true },
  { errno: -8, code: 'BADARGUMENTS', message: 'Bad arguments', retryable: false },
  { errno: -12, code: 'UNKNOWNSESSION', message: 'Unknown session', retryable: false },
  { errno: -13, code: 'NEWCONFIGNOQUORUM', message: 'New config has no quorum', retryable: false },
  { errno: -14, code: 'RECONFIGINPROGRESS', message: 'Reconfig in progress', retryable: false },
  { errno: -100, code: 'APIERROR', message: 'API error', retryable: false },
  { errno: -101, code: 'NONODE', message: 'No node', retryable: false },
  { errno: -102, code: 'NOAUTH', message: 'Not authorized', retryable: false },
  { errno: -103, code: 'BADVERSION', message: 'Bad version', retryable: false },
  {
    errno: -108,
    code: 'NOCHILDRENFOREPHEMERALS',
    message: 'Ephemeral nodes may not have children',
    retryable: false,
  },
  { errno: -110, code: 'NODEEXISTS', message: 'Node exists', retryable: false },
  { errno: -111, code: 'NOTEMPTY', message: 'Node has children', retryable: false },
  { errno: -112, code: 'SESSIONEXPIRED', message: 'Session expired', retryable: true },
  { errno: -113, code: 'INVALIDCALLBACK', message: 'Invalid callback', retryable: false },
  { errno: -114, code: 'INVALIDACL', message: 'Invalid ACL', retryable: false },
  { errno: -115, code: 'AUTHFAILED', message: 'Authentication failed', retryable: false },
  { errno: -118, code: 'SESSIONMOVED', message: 'Session moved to another server', retryable: true },
  {
    errno: -119,
    code: 'NOTREADONLY',
    message: 'Not a read-only call (the server is read-only)',
    retryable: false,
  },
  {
    errno: -120,
    code: 'EPHEMERALONLOCALSESSION',
    message: 'Ephemeral node on a local session',
    retryable: false,
  },
  { errno: -121, code: 'NOWATCHER', message: 'No such watcher', retryable: false },
  { errno: -122, code: 'REQUESTTIMEOUT', message: 'Request timed out', retryable: false },
  { errno: -123, code: 'RECONFIGDISABLED', message: 'Reconfig is disabled', retryable: false },
  {
    errno: -124,
    code: 'SESSIONCLOSEDREQUIRESASLAUTH',
    message: 'Session closed: SASL or enforced authentication is required',
    retryable: false,
  },
  { errno: -125, code: 'QUOTAEXCEEDED', message: 'Quota exceeded', retryable: false },
  { errno: -127, code: 'THROTTLEDOP', message: 'Request throttled by the server', retryable: true },
];

const byErrno = new Map<number, ErrorCodeInfo>(table.map((row) => [row.errno, row]));

/** Server error codes by name (numeric values, wire-protocol.md §5). */
export const ErrorCode = {
  OK: 0,
  SYSTEMERROR: -1,
  RUNTIMEINCONSISTENCY: -2,
  DATAINCONSISTENCY: -3,
  CONNECTIONLOSS: -4,
  MARSHALLINGERROR: -5,
  UNIMPLEMENTED: -6,
  OPERATIONTIMEOUT: -7,
  BADARGUMENTS: -8,
  NONODE: -101,
  NOAUTH: -102,
  BADVERSION: -103,
  NOCHILDRENFOREPHEMERALS: -108,
  NODEEXISTS: -110,
  NOTEMPTY: -111,
  SESSIONEXPIRED: -112,
  INVALIDACL: -114,
  AUTHFAILED: -115,
  SESSIONMOVED: -118,
  NOTREADONLY: -119,
  NOWATCHER: -121,
  THROTTLEDOP: -127,
} as const;

/** Looks up a server code; unknown codes (a newer server) get a generic row instead of failing. */
export function errorInfo(errno: number): ErrorCodeInfo {
  return (
    byErrno.get(errno) ?? { errno, code: 'UNKNOWN', message: `Unknown error code ${errno}`, retryable: false }
  );
}

/** Context an error may carry. */
export interface ErrorContext {
  path?: string | undefined;
  operation?: string | undefined;
  cause?: unknown;
  /** What the client knows of why, appended to the message (`No node (getChildren /): the chroot ...`). */
  detail?: string | undefined;
}

/** The base of every error this client raises. */
export class ZooKeeperError extends Error {
  /** Stable string code (`NONODE`, `CONNECTIONLOSS`, ...). */
  readonly code: string;
  /** Numeric server code (client-side conditions use the Java client's number for them). */
  readonly errno: number;
  /** The client path the operation was about, when there is one. */
  readonly path: string | undefined;
  /** The operation name (`getData`, `create`, ...), when known. */
  readonly operation: string | undefined;
  /** Whether Curator's retry loop would retry after this error. */
  readonly retryable: boolean;

  constructor(code: string, errno: number, message: string, context: ErrorContext = {}, retryable = false) {
    const where = [context.operation, context.path].filter(Boolean).join(' ');
    const located = where ? `${message} (${where})` : message;
    super(
      context.detail ? `${located}: ${context.detail}` : located,
      context.cause === undefined ? undefined : { cause: context.cause },
    );
    this.name = new.target.name;
    this.code = code;
    this.errno = errno;
    this.path = context.path;
    this.operation = context.operation;
    this.retryable = retryable;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for any ZooKeeperError, also one thrown by another copy of this package (ESM vs CJS). */
  static isInstance(error: unknown): error is ZooKeeperError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

function serverError(errno: number) {
  const info = errorInfo(errno);
  return class extends ZooKeeperError {
    constructor(context: ErrorContext = {}) {
      super(info.code, info.errno, info.message, context, info.retryable);
    }
  };
}

/** The node does not exist (-101). */
export class NoNodeError extends serverError(-101) {}
/** The node already exists (-110). */
export class NodeExistsError extends serverError(-110) {}
/** The expected version did not match (-103). */
export class BadVersionError extends serverError(-103) {}
/** The node has children and cannot be deleted (-111). */
export class NotEmptyError extends serverError(-111) {}
/** The ACL does not allow the operation for this connection's identities (-102). */
export class NoAuthError extends serverError(-102) {}
/** Authentication was refused (-115); the server closes the connection. */
export class AuthFailedError extends serverError(-115) {}
/** No watch of that kind is registered (-121). */
export class NoWatcherError extends serverError(-121) {}
/** A write reached a read-only server (-119). */
export class NotReadOnlyError extends serverError(-119) {}
/** The ACL list is empty or malformed (-114). */
export class InvalidACLError extends serverError(-114) {}
/** Ephemeral nodes cannot have children (-108). */
export class NoChildrenForEphemeralsError extends serverError(-108) {}
/** The server refused the arguments (-8). */
export class BadArgumentsError extends serverError(-8) {}
/** The server does not implement the request (-6). */
export class UnimplementedError extends serverError(-6) {}

/**
 * The connection was lost while the request was pending (or it could not be sent). The request may or may not
 * have been applied; the session may still be alive.
 */
export class ConnectionLossError extends serverError(-4) {}
/** The session expired (or was found invalid); every later call fails the same way. */
export class SessionExpiredError extends serverError(-112) {}

/** The client was closed; no more calls can be made. */
export class ClientClosedError extends ZooKeeperError {
  constructor(context: ErrorContext = {}) {
    super('CLIENTCLOSED', -4, 'Client is closed', context);
  }
}

/** The server sent bytes that break the protocol (bad frame, xid out of order); the connection was ended. */
export class ProtocolError extends ZooKeeperError {
  constructor(message: string, context: ErrorContext = {}) {
    super('PROTOCOLERROR', -5, `Protocol error: ${message}`, context);
  }
}

/** The call did not complete within its `timeoutMs`. */
export class OperationTimeoutError extends ZooKeeperError {
  constructor(context: ErrorContext = {}) {
    super('OPERATIONTIMEOUT', -7, 'Operation timed out', context, true);
  }
}

/** An argument was refused before anything was sent; `argument` names it. */
export class InvalidArgumentError extends ZooKeeperError {
  /** The name of the refused argument. */
  readonly argument: string;
  constructor(argument: string, message: string, context: ErrorContext = {}) {
    super('BADARGUMENTS', -8, `Invalid ${argument}: ${message}`, context);
    this.argument = argument;
  }
}

/** The server is too old for the operation; `requiredVersion` names the first release that has it. */
export class UnsupportedByServerError extends ZooKeeperError {
  /** The first server version that supports the operation, e.g. `3.6.0`. */
  readonly requiredVersion: string;
  /** The server's version, when known. */
  readonly serverVersion: string | undefined;
  constructor(requiredVersion: string, serverVersion: string | undefined, context: ErrorContext = {}) {
    super(
      'UNSUPPORTEDBYSERVER',
      -6,
      `Requires ZooKeeper ${requiredVersion} or later (server is ${serverVersion ?? 'unknown'})`,
      context,
    );
    this.requiredVersion = requiredVersion;
    this.serverVersion = serverVersion;
  }
}

/** A failed `multi`: `results` holds, per op, its result (never applied) or its error. */
export class MultiError extends ZooKeeperError {
  /** Per-op outcome, in op order: the failing op's error, and errors for the others (RUNTIMEINCONSISTENCY, OK). */
  readonly results: readonly (ZooKeeperError | null)[];
  /** Index of the first op that failed. */
  readonly failedIndex: number;
  /** The error of the op that failed. */
  readonly failed: ZooKeeperError;
  constructor(results: readonly (ZooKeeperError | null)[], failedIndex: number, context: ErrorContext = {}) {
    const failed = results[failedIndex]!;
    super(failed.code, failed.errno, `Transaction failed at op ${failedIndex}: ${failed.message}`, {
      ...context,
      path: failed.path,
    });
    this.results = results;
    this.failedIndex = failedIndex;
    this.failed = failed;
  }
}

const classes = new Map<number, new (context?: ErrorContext) => ZooKeeperError>([
  [-101, NoNodeError],
  [-110, NodeExistsError],
  [-103, BadVersionError],
  [-111, NotEmptyError],
  [-102, NoAuthError],
  [-115, AuthFailedError],
  [-121, NoWatcherError],
  [-119, NotReadOnlyError],
  [-114, InvalidACLError],
  [-108, NoChildrenForEphemeralsError],
  [-8, BadArgumentsError],
  [-6, UnimplementedError],
  [-4, ConnectionLossError],
  [-112, SessionExpiredError],
]);

/** Builds the error for a server code, as its own class where callers branch on it. */
export function errorFromCode(errno: number, context: ErrorContext = {}): ZooKeeperError {
  const Class = classes.get(errno);
  if (Class) return new Class(context);
  const info = errorInfo(errno);
  return new ZooKeeperError(info.code, errno, info.message, context, info.retryable);
}

function guard(code: string) {
  return (error: unknown): error is ZooKeeperError => ZooKeeperError.isInstance(error) && error.code === code;
}

/** True when `error` is a NONODE error. */
export const isNoNode = guard('NONODE');
/** True when `error` is a NODEEXISTS error. */
export const isNodeExists = guard('NODEEXISTS');
/** True when `error` is a BADVERSION error. */
export const isBadVersion = guard('BADVERSION');
/** True when `error` is a NOTEMPTY error. */
export const isNotEmpty = guard('NOTEMPTY');
/** True when `error` is a NOAUTH error. */
export const isNoAuth = guard('NOAUTH');
/** True when `error` is a CONNECTIONLOSS error. */
export const isConnectionLoss = guard('CONNECTIONLOSS');
/** True when `error` is a SESSIONEXPIRED error. */
export const isSessionExpired = guard('SESSIONEXPIRED');
/** True when `error` is a CLIENTCLOSED error. */
export const isClientClosed = guard('CLIENTCLOSED');
/** True when `error` is an OPERATIONTIMEOUT error. */
export const isOperationTimeout = guard('OPERATIONTIMEOUT');
/** True when `error` is a NOWATCHER error. */
export const isNoWatcher = guard('NOWATCHER');

/** The words of a thrown value: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
