/**
 * The version gate: the pipeline asks it about a gated request (addWatch, multiRead, whoAmI, ...) when that
 * request reaches the head of the outgoing queue. A server known to be too old fails the request in its
 * place with UnsupportedByServerError; while the version is being asked (`srvr`, once per host) the queue
 * waits there; when it cannot be learnt the request goes out, and an old server's Unimplemented answer
 * becomes the same error in the settle step (wire-protocol.md §4.1).
 */
import { atLeast, FEATURE_SINCE, type GatedFeature, ServerVersions } from '../protocol/server-version.js';
import { UnsupportedByServerError } from '../util/errors.js';
import type { ClientOptions, HostAddress } from '../util/types.js';

/** What the version gate says of a gated request at the head of the outgoing queue. */
export const GateVerdict = { send: 'send', wait: 'wait' } as const;
/** One of {@link GateVerdict}, or the error the request fails with. */
export type GateDecision = (typeof GateVerdict)[keyof typeof GateVerdict] | UnsupportedByServerError;

/** Decides gated requests against the connected server's version. */
export interface VersionGate {
  decide(feature: GatedFeature): GateDecision;
}

/** What the gate needs of its session. */
export interface VersionGateOwner {
  /** The host of the current connection. */
  readonly currentHost: HostAddress | undefined;
  /** A host's version is known (or known to be unknowable): the queue can move on. */
  serverVersionLearnt(): void;
}

/** The gate of one session: the connected host's version, asked once per host. */
export class ServerVersionGate implements VersionGate {
  /** The server's version: the declared one (`serverVersion` option), else once a gated request asked for it. */
  serverVersion: string | undefined;
  /** Made at the first gated request: most sessions send none. */
  private versions: ServerVersions | undefined;
  private readonly declared: string | undefined;

  constructor(
    /** The session: the host of its current connection, and whom to tell when a version is learnt. */
    private readonly session: VersionGateOwner,
    /** How to reach a host for `srvr` (this client's TLS and connection factory), and a declared version. */
    private readonly options: Pick<ClientOptions, 'tls' | 'connectionFactory' | 'serverVersion'>,
  ) {
    this.declared = options.serverVersion;
    this.serverVersion = options.serverVersion;
  }

  decide(feature: GatedFeature): GateDecision {
    // A declared version decides without asking any server (Curator's ZookeeperCompatibility).
    if (this.declared !== undefined) return verdictFor(feature, this.declared);
    const address = this.session.currentHost;
    if (address === undefined) return GateVerdict.send;
    const versions = (this.versions ??= new ServerVersions());
    const known = versions.known(address);
    if (known === undefined) {
      void versions.of(address, this.options).then(() => this.session.serverVersionLearnt());
      return GateVerdict.wait;
    }
    if (known.pending) return GateVerdict.wait;
    const version = known.version;
    if (version === undefined) return GateVerdict.send;
    this.serverVersion = version;
    return verdictFor(feature, version);
  }
}

/** Send when `version` has the feature, else the error the request fails with, before anything is sent. */
function verdictFor(feature: GatedFeature, version: string): GateDecision {
  const required = FEATURE_SINCE[feature];
  if (atLeast(version, required)) return GateVerdict.send;
  return new UnsupportedByServerError(required, version, { operation: feature });
}
