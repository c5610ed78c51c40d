/**
 * Errors raised by the modeled framework itself. ZooKeeper's own errors (NoNode, BadVersion, a connection
 * loss) pass through unchanged as the client's typed errors. Every error here is a {@link ModeledError} with
 * a stable `code`; `ModeledError.isInstance` tests a `Symbol.for` marker, so it works across the ESM and CJS
 * copies of this package.
 */
import { errorFamilyMarker, hasErrorMarker, invalidArgumentMessage, markError } from '@zkwire/common';
import type { StandardSchemaV1 } from './standard-schema.js';

const MARKER = errorFamilyMarker('modeled');

/** Stable codes of the modeled errors, one per condition. */
export const ModeledErrorCode = {
  /** A bad argument (path, parameter, option), refused before anything was sent. */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The operation needs a fully resolved path and the path still has parameters. */
  UNRESOLVED_PATH: 'UNRESOLVED_PATH',
  /** The model schema refused a model: on write nothing was sent; on read the node's model is invalid. */
  MODEL_INVALID: 'MODEL_INVALID',
  /** The serializer threw while turning a model into bytes (nothing was sent). */
  SERIALIZE_FAILED: 'SERIALIZE_FAILED',
  /** A node's bytes could not be turned into a model. */
  DESERIALIZE_FAILED: 'DESERIALIZE_FAILED',
  /** A write or watch that a {@link SchemaSet} does not allow (nothing was sent). */
  SCHEMA_VIOLATION: 'SCHEMA_VIOLATION',
  /** The migrations already applied do not match the migration set (nothing was applied). */
  MIGRATION_MISMATCH: 'MIGRATION_MISMATCH',
  /** The migration lock was not acquired in time (nothing was applied). */
  MIGRATION_LOCK_TIMEOUT: 'MIGRATION_LOCK_TIMEOUT',
  /** The object is in the wrong state for the call (a cache not started, or closed). */
  ILLEGAL_STATE: 'ILLEGAL_STATE',
  /** A cache's `events()` consumer fell further behind than its buffer holds. */
  EVENTS_OVERFLOW: 'EVENTS_OVERFLOW',
} as const;

/** One of {@link ModeledErrorCode}. */
export type ModeledErrorCode = (typeof ModeledErrorCode)[keyof typeof ModeledErrorCode];

/** Base class of every error the modeled framework raises on its own account. */
export class ModeledError extends Error {
  /** Which condition this is; stable across versions, unlike the message. */
  readonly code: ModeledErrorCode;

  constructor(code: ModeledErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    // Set by each subclass too: a consumer's minifier may rename classes, and `name` is API.
    this.name = 'ModeledError';
    markError(this, MARKER);
  }

  /** True for any modeled error, whichever copy of the package made it. */
  static isInstance(error: unknown): error is ModeledError {
    return hasErrorMarker(error, MARKER);
  }
}

/** A bad argument, refused before anything was sent; `argument` names it (or the call it was given to). */
export class InvalidModelArgumentError extends ModeledError {
  readonly argument: string;

  constructor(argument: string, problem: string) {
    super(ModeledErrorCode.INVALID_ARGUMENT, invalidArgumentMessage(argument, problem));
    this.name = 'InvalidModelArgumentError';
    this.argument = argument;
  }
}

/** The modeled framework's bad-argument error, in the shape @zkwire/common's checks take. */
export const invalidModelArgument = (argument: string, problem: string): InvalidModelArgumentError =>
  new InvalidModelArgumentError(argument, problem);

/** The operation needs a resolved path; `path` shows the parameters left (`/tenants/{id}/quota`). */
export class UnresolvedPathError extends ModeledError {
  readonly path: string;
  constructor(path: string, operation: string) {
    super(ModeledErrorCode.UNRESOLVED_PATH, `${operation}: the path ${path} has unresolved parameters`);
    this.name = 'UnresolvedPathError';
    this.path = path;
  }
}

/**
 * The model schema refused a model. `direction` says when: `'write'` (nothing was sent) or `'read'` (the
 * node at `path` holds a model the schema refuses). `issues` are the validator's own.
 */
export class ModelValidationError extends ModeledError {
  readonly path: string;
  readonly direction: 'read' | 'write';
  readonly issues: readonly StandardSchemaV1.Issue[];
  constructor(path: string, direction: 'read' | 'write', issues: readonly StandardSchemaV1.Issue[]) {
    const summary = issues
      .slice(0, 3)
      .map((issue) => (issue.path?.length ? `${issuePath(issue.path)}: ${issue.message}` : issue.message))
      .join('; ');
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    const what =
      direction === 'write' ? 'model refused by the schema, nothing sent' : 'node fails the schema';
    super(ModeledErrorCode.MODEL_INVALID, `${path}: ${what}: ${summary}${more}`);
    this.name = 'ModelValidationError';
    this.path = path;
    this.direction = direction;
    this.issues = issues;
  }
}

function issuePath(path: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment>): string {
  return path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

/** The serializer threw on a model meant for `path`; nothing was sent. The serializer's error is `cause`. */
export class ModelSerializationError extends ModeledError {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(
      ModeledErrorCode.SERIALIZE_FAILED,
      `${path}: the model could not be serialized: ${messageOf(cause)}`,
      {
        cause,
      },
    );
    this.name = 'ModelSerializationError';
    this.path = path;
  }
}

/** The node at `path` holds bytes the serializer cannot read (`data`); the serializer's error is `cause`. */
export class ModelDeserializationError extends ModeledError {
  readonly path: string;
  readonly data: Uint8Array;
  constructor(path: string, data: Uint8Array, cause: unknown) {
    super(
      ModeledErrorCode.DESERIALIZE_FAILED,
      `${path}: the node's ${data.length} bytes could not be deserialized: ${messageOf(cause)}`,
      { cause },
    );
    this.name = 'ModelDeserializationError';
    this.path = path;
    this.data = data;
  }
}

/** A {@link SchemaSet} does not allow the operation at `path`: `schemaName` names the schema that said no. */
export class SchemaViolationError extends ModeledError {
  readonly path: string;
  readonly schemaName: string;
  readonly reason: string;
  constructor(schemaName: string, path: string, reason: string) {
    super(ModeledErrorCode.SCHEMA_VIOLATION, `schema "${schemaName}" refuses ${path}: ${reason}`);
    this.name = 'SchemaViolationError';
    this.path = path;
    this.schemaName = schemaName;
    this.reason = reason;
  }
}

/** The migration set `migrationSetId` does not match what was applied before; nothing was applied. */
export class MigrationMismatchError extends ModeledError {
  readonly migrationSetId: string;
  constructor(migrationSetId: string, message: string) {
    super(ModeledErrorCode.MIGRATION_MISMATCH, message);
    this.name = 'MigrationMismatchError';
    this.migrationSetId = migrationSetId;
  }
}

/** The lock of migration set `migrationSetId` was not acquired within `lockMaxMs`; nothing was applied. */
export class MigrationLockTimeoutError extends ModeledError {
  readonly migrationSetId: string;
  constructor(migrationSetId: string, lockMaxMs: number) {
    super(
      ModeledErrorCode.MIGRATION_LOCK_TIMEOUT,
      `migration set "${migrationSetId}": lock not acquired within ${lockMaxMs} ms`,
    );
    this.name = 'MigrationLockTimeoutError';
    this.migrationSetId = migrationSetId;
  }
}

/** The object is in the wrong state for the call. */
export class IllegalModeledStateError extends ModeledError {
  constructor(message: string) {
    super(ModeledErrorCode.ILLEGAL_STATE, message);
    this.name = 'IllegalModeledStateError';
  }
}

/** A cache's `events()` consumer fell more than its buffer behind; the cache itself is current. */
export class ModelEventsOverflowError extends ModeledError {
  constructor(bufferSize: number) {
    super(ModeledErrorCode.EVENTS_OVERFLOW, `events() consumer fell more than ${bufferSize} events behind`);
    this.name = 'ModelEventsOverflowError';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
