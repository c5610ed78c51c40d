/**
 * The public types of the client API (docs/contracts.md, `@zkwire/zk-wire-client`).
 */

import type { Socket } from 'node:net';
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';

/** A znode's metadata, as the codec decodes it: jute `long` fields are `bigint` (zxids, ms times, owner). */
export type { Stat } from '@zkwire/jute-codec';

/** An identity: a scheme and an id within it (`digest` / `bob:base64hash`, `world` / `anyone`). */
export interface Id {
  scheme: string;
  id: string;
}

/** One ACL entry: the permissions granted to an identity (bits of `Perms`, util/acl.ts). */
export interface ACL {
  perms: number;
  id: Id;
}

/** One server address. */
export interface HostAddress {
  readonly host: string;
  readonly port: number;
}

/** A logger: `console`, pino, winston and the like fit. Each method receives one message string. */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** One of the logger's levels. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Options every call takes. */
export interface CallOptions {
  /** Aborts the call: not yet written, it is dropped; already written, its result is discarded. */
  signal?: AbortSignal | undefined;
  /** Rejects with OperationTimeoutError after this many ms (0 = none; default: the client's requestTimeoutMs). */
  timeoutMs?: number | undefined;
}

/**
 * Kinds of watch events: the server sends the first four; the `...Removed` ones come from watch removal;
 * `sessionExpired` is the last event of every one-shot watcher still armed when the session expires (Java's
 * Expired state), with the path it watched.
 */
export type WatchEventType =
  | 'created'
  | 'deleted'
  | 'dataChanged'
  | 'childrenChanged'
  | 'dataWatchRemoved'
  | 'childWatchRemoved'
  | 'persistentWatchRemoved'
  | 'sessionExpired';

/** A watch event; `path` is a client path (the chroot removed). */
export interface WatchEvent {
  type: WatchEventType;
  path: string;
  /**
   * The zxid of the change that fired the event, from servers that send it (3.9 and later, ZOOKEEPER-4655);
   * absent from older servers, and from events the client makes itself (`*WatchRemoved`, `sessionExpired`).
   */
  zxid?: bigint;
}

/** A watch callback. It may throw: the client reports the error as a `watcherError` event and carries on. */
export type Watcher = (event: WatchEvent) => void;

/** How a node is created. */
export type CreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'persistent-sequential'
  | 'ephemeral-sequential'
  | 'container'
  | 'persistent-ttl'
  | 'persistent-sequential-ttl';

/** Options of create and create2. */
export interface CreateOptions extends CallOptions {
  /** Default 'persistent'. */
  mode?: CreateMode | undefined;
  /** Default: open (world:anyone, all permissions). */
  acl?: ACL[] | undefined;
  /** Required for the TTL modes: 1 ms to 0xFF_FFFF_FFFF ms. */
  ttlMs?: number | bigint | undefined;
  /** Create missing parents first: `true` or 'persistent' as persistent nodes, 'container' as containers. */
  createParents?: boolean | 'persistent' | 'container' | undefined;
  /**
   * The ACL of parents made by `createParents`. Default: open, whatever `acl` says (as Curator's
   * creatingParentsIfNeeded): a node's own ACL, read-only say, would keep its creator from creating the node
   * itself under the new parent.
   */
  parentAcl?: ACL[] | undefined;
  /**
   * Curator's `withProtection()`: the node is named `_c_<uuid>-<name>`, and a create whose reply is lost
   * (connection loss) is found again by that name instead of being made twice or left orphaned. `true`
   * makes up to 4 attempts; `{ maxAttempts }` sets the number. Several requests: outside the order promise.
   */
  protected?: boolean | { maxAttempts?: number } | undefined;
}

/** Data accepted by writes: bytes, a string (UTF-8), or null (a null buffer on the wire). */
export type Data = Uint8Array | string | null | undefined;

/** Type of a watch to check or remove. */
/**
 * The watches removeWatches/checkWatches act on: one-shot child watches, one-shot data and exist watches, all,
 * or (servers 3.9+, ZOOKEEPER-4472) persistent or persistent-recursive watches alone.
 */
export type WatchType = 'children' | 'data' | 'any' | 'persistent' | 'persistent-recursive';

/** Client-side session states. */
export type SessionState = 'connecting' | 'connected' | 'read-only' | 'suspended' | 'expired' | 'closed';

/** Connection state events, with Curator's meanings (curator/connection-states.md §13.1). */
export type ConnectionState = 'connected' | 'suspended' | 'reconnected' | 'lost' | 'read-only';

/** SASL options, handled by the security module's authenticator (see security/sasl-hook.ts). */
export interface SaslOptions {
  mechanism: 'DIGEST-MD5' | (string & {});
  username: string;
  password: string;
  serviceName?: string;
  hostname?: string;
}

/**
 * A detached session (`client.detach()`): enough to resume it with `connect({ session })`, from any thread or
 * process, within `timeoutMs`.
 */
export interface SessionHandoff {
  /**
   * The session id: 16 lowercase hex digits, its 64 bits as the server's logs write them (without `0x`);
   * `BigInt.asIntN(64, BigInt('0x' + sessionId))` is the client's `sessionId`.
   */
  readonly sessionId: string;
  /** The session password: 32 hex digits. A secret: whoever has it owns the session. */
  readonly password: string;
  /** The session timeout the server granted: resume before it passes since the detach. */
  readonly timeoutMs: number;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /**
   * `h1:2181,h2:2181/chroot`, or `dns-srv://_zookeeper._tcp.example.org/chroot` (ZooKeeper 3.10's syntax):
   * the servers are the targets of that name's SRV records, looked up before the first connection (none
   * found: the client ends with DnsSrvLookupError) and again every `dnsSrvRefreshMs`.
   */
  connectString: string;
  /** Requested session timeout (the server clamps it). Default 30000. */
  sessionTimeoutMs?: number;
  /** Accept read-only servers. Default false. */
  canBeReadOnly?: boolean;
  /**
   * Reattach to an existing session: a hand-off from `detach()` (in this or another thread or process), or a
   * client's `{ id: sessionId, password: sessionPassword }`. If the server says the session is gone, the
   * first connection ends the client with SessionExpiredError (never a new session, whatever
   * `autoRecreateSession` says). A hand-off's `timeoutMs` is the session timeout asked for unless
   * `sessionTimeoutMs` is given.
   */
  session?: SessionHandoff | { id: bigint; password: Uint8Array };
  /** After expiry, start a new session instead of failing every call with SessionExpired. Default false. */
  autoRecreateSession?: boolean;
  /**
   * The client-wide default request timeout in ms (Java's `zookeeper.request.timeout`): a call given no
   * `timeoutMs` rejects with OperationTimeoutError after this long. Default 0, none (as Java): a server that
   * answers pings but never a request then stalls such calls until the connection or the session ends.
   */
  requestTimeoutMs?: number;
  /**
   * How long `connect()`, and `connected()` before the first connection, wait when the call gives no
   * `timeoutMs` (Curator's connection timeout). Default 15000; 0 waits without bound. The rejection is an
   * OperationTimeoutError whose message names the servers tried and why each failed (`connect ECONNREFUSED
   * 127.0.0.1:2181`, `getaddrinfo ENOTFOUND ...`), its `cause` a ConnectionLossError over the last reason.
   */
  connectWaitMs?: number;
  /**
   * Before the first session: give up as soon as every server of the connect string has failed once (refused,
   * unknown host, no answer within the connect timeout), instead of trying again until `connectWaitMs`
   * (Rust's `with_fail_eagerly`). The client then closes itself: `connect()` and `connected()` reject, and so
   * does every call, with a ConnectionLossError naming the servers and their reasons. Once a session was
   * made, losing every server is a suspension as usual. Default false.
   */
  failFast?: boolean;
  /**
   * Creates the chroot of the connect string (`host:2181/app` → `/app` and its parents, persistent, with
   * `defaultAcl`) on connect, before any call of this client reaches the server, as Curator's namespace does.
   * Without it a missing chroot fails calls on its root with a NoNodeError that says so. Default false.
   */
  ensureChroot?: boolean;
  /**
   * How long `close()` waits for the server's answer to closeSession before ending anyway. Default: the
   * requested session timeout, or the negotiated one when the server granted less.
   */
  closeTimeoutMs?: number;
  /**
   * The ACL of creates (and multi creates) that name none, as Curator's ACLProvider default or kazoo's
   * `default_acl`. Default: open (world:anyone, all permissions).
   */
  defaultAcl?: ACL[];
  /** Largest reply frame accepted, in bytes. Default 4 MiB. */
  maxFrameLength?: number;
  /** Credentials sent on every connection (as addAuth would). */
  auth?: { scheme: string; credentials: Uint8Array | string }[];
  /** Connect with TLS: `true` or node:tls options. */
  tls?: TlsConnectionOptions | boolean;
  /** SASL authentication, run right after the handshake by a registered authenticator. */
  sasl?: SaslOptions;
  /** Opens the socket instead of node:net (tests, proxies). */
  connectionFactory?: (host: string, port: number) => Socket;
  /**
   * The ZooKeeper version the client targets (`'3.5.10'`, `'3.9.5'`), as Curator 5.7's
   * `ZookeeperCompatibility`: calls the version lacks fail with `UnsupportedByServerError` before anything is
   * sent, and the recipes' caches pick their engine from it, without asking any server (`srvr`). Default: each
   * host is asked once, at the first call that depends on it.
   */
  serverVersion?: string;
  /** The largest data a write may carry, checked before sending. Default 0xFFFFF - 1024 (jute.maxbuffer). */
  maxDataLength?: number;
  /**
   * Under load (many requests in flight), wait a little between socket reads so that one read takes about
   * 32 replies and one write sends as many requests: far less CPU per request, and a server fed in batches
   * answers more. The wait follows the reply rate measured on the connection (1 ms on a fast server, up to
   * `maxDelayMs` on a slow one), or is `delayMs` when set. Taken only when replies drive the requests (the
   * callers write their next requests in the turn of a read), never when it could leave the server idle,
   * nor with fewer than `minInFlight` requests in flight. Default on: `{ minInFlight: 64, maxDelayMs: 4 }`;
   * `false` reads every reply at once.
   * Applies to the connections the client opens (plain TCP and TLS); `connectionFactory` sockets read every
   * reply as it lands.
   */
  readCoalescing?: ReadCoalescingOptions | boolean;
  /**
   * Where connection events, states, expiry and swallowed errors are logged (`console`, pino, winston: any
   * object with `debug`/`info`/`warn`/`error` taking a string). Default: silent. Never receives credentials.
   */
  logger?: Logger;
  /**
   * Follow the ensemble's membership (Curator's EnsembleTracker; servers 3.5+ with dynamic reconfiguration):
   * keep a watch on the configuration (`getConfig`), replace the host list with the members' client
   * addresses when it changes, and move the session to another server when rebalancing says so (as the Java
   * client's `updateServerList`: some clients move, so that load spreads; a client whose server left always
   * moves). The addresses come from the servers' config, not the connect string. Default false.
   */
  ensembleTracking?: boolean;
  /**
   * With a `dns-srv://` connect string: how often the SRV records are looked up again, in ms. A changed
   * answer replaces the servers as `updateServerList` does (some clients move, so that load spreads); a failed
   * lookup keeps the servers the client has (and logs it). 0 turns the refresh off. Default 60000.
   */
  dnsSrvRefreshMs?: number;
  /**
   * With a `dns-srv://` connect string: the DNS servers the SRV lookups ask (IP addresses, each with an
   * optional port: `'10.0.0.2'`, `'127.0.0.1:5353'`, `'[::1]:5353'`), e.g. a split-horizon resolver.
   * Default: the system's (resolv.conf). The targets are resolved at each connection as any host name is.
   */
  dnsServers?: string[];
}

/** One identity of the connection, as whoAmI reports it. */
export interface ClientInfo {
  authScheme: string;
  user: string;
}

/** The `readCoalescing` option: `false` turns pacing off. */
export interface ReadCoalescingOptions {
  /** Requests in flight below which every reply is read at once. Default 64. */
  minInFlight?: number;
  /**
   * A fixed wait between reads under load, in ms, instead of the adaptive one (see `maxDelayMs`).
   * Unset by default.
   */
  delayMs?: number;
  /** The longest adaptive wait between reads, in ms. Default 4. */
  maxDelayMs?: number;
}
