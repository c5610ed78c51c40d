/**
 * Errors raised by service discovery itself (the client's own errors, such as a connection loss during a
 * call, pass through unchanged). Every one is a {@link DiscoveryError} with a stable `code`, one per
 * condition, and a subclass per condition a caller may want to branch on. `DiscoveryError.isInstance` tests a
 * `Symbol.for` marker, not the class, so it works across the ESM and CJS copies of this package.
 */
import { errorFamilyMarker, hasErrorMarker, invalidArgumentMessage, markError } from '@zkwire/common';

const MARKER = errorFamilyMarker('discovery');

/** Stable codes of the discovery errors, one per condition. */
export const DiscoveryErrorCode = {
  /** A bad argument (name, id, port, payload, option), refused before anything was sent. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The object is in the wrong state for the call (not started, started twice, closed). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** `updateService` for an id this ServiceDiscovery has not registered (Curator's "Service not registered"). */
  NOT_REGISTERED: 'NOT_REGISTERED',
  /** An instance node held bytes that are not a service instance (its `path` says which node). */
  BAD_INSTANCE: 'BAD_INSTANCE',
} as const;

/** One of {@link DiscoveryErrorCode}. */
export type DiscoveryErrorCode = (typeof DiscoveryErrorCode)[keyof typeof DiscoveryErrorCode];

/** Base class of every error service discovery raises on its own account. */
export class DiscoveryError extends Error {
  /** Which condition this is; stable across versions, unlike the message. */
  readonly code: DiscoveryErrorCode;

  constructor(code: DiscoveryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Set explicitly by each subclass too: a consumer's minifier may rename classes, and `name` is API.
    this.name = 'DiscoveryError';
    markError(this, MARKER);
  }

  /** True for any discovery error, whichever copy of the package made it. */
  static isInstance(error: unknown): error is DiscoveryError {
    return hasErrorMarker(error, MARKER);
  }
}

/** A bad argument, refused before anything was sent; `argument` names it. */
export class InvalidDiscoveryArgumentError extends DiscoveryError {
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(DiscoveryErrorCode.INVALID_ARGUMENT, invalidArgumentMessage(argument, problem));
    this.name = 'InvalidDiscoveryArgumentError';
    this.argument = argument;
  }
}

/** Discovery's bad-argument error, in the shape @zkwire/common's checks take. */
export const invalidDiscoveryArgument = (argument: string, problem: string): InvalidDiscoveryArgumentError =>
  new InvalidDiscoveryArgumentError(argument, problem);

/** A call made in the wrong state: before `start()`, after `close()`, or a second `start()`. */
export class IllegalDiscoveryStateError extends DiscoveryError {
  constructor(message: string) {
    super(DiscoveryErrorCode.ILLEGAL_STATE, message);
    this.name = 'IllegalDiscoveryStateError';
  }
}

/** `updateService` for an instance id this ServiceDiscovery did not register (or already unregistered). */
export class ServiceNotRegisteredError extends DiscoveryError {
  readonly id: string;

  constructor(name: string, id: string) {
    super(DiscoveryErrorCode.NOT_REGISTERED, `Service instance ${name}/${id} is not registered here`);
    this.name = 'ServiceNotRegisteredError';
    this.id = id;
  }
}

/**
 * An instance node whose bytes are not a service instance (not UTF-8 JSON, not an object, a field of the
 * wrong type). Caches and providers report it (an `error` event) and skip the node; queries throw it.
 */
export class BadInstanceDataError extends DiscoveryError {
  /** The znode that held the bytes. */
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(DiscoveryErrorCode.BAD_INSTANCE, `Not a service instance at ${path}: ${reason}`, options);
    this.name = 'BadInstanceDataError';
    this.path = path;
  }
}
