/**
 * @zkwire/modeled: typed models at parameterized ZooKeeper paths (Curator's ModeledFramework from
 * curator-x-async): paths checked by the compiler, Standard Schema validation, versioned compare-and-set,
 * cached models, schema sets and migrations. The README maps each Curator class to ours. One export
 * statement per module, sorted by path.
 */
export { CachedModeledFramework, type CachedModeledOptions } from './cached-modeled-framework.js';
export {
  IllegalModeledStateError,
  InvalidModelArgumentError,
  MigrationLockTimeoutError,
  MigrationMismatchError,
  ModelDeserializationError,
  ModelEventsOverflowError,
  ModeledError,
  ModeledErrorCode,
  ModelSerializationError,
  ModelValidationError,
  SchemaViolationError,
  UnresolvedPathError,
} from './errors.js';
export { MigrationManager, type MigrationManagerOptions } from './migrations/migration-manager.js';
export { type Migration, type MigrationSet, migrationSet } from './migrations/migration-set.js';
export { operationsHash } from './migrations/op-digest.js';
export type { ModelCacheEvents } from './model-cache.js';
export type { ModelCacheEvent, ModelEventsOptions } from './model-events.js';
export {
  type ModelCreateOptions,
  type ModelDeleteOptions,
  ModelSpec,
  type ModelSpecOptions,
  modelSpec,
} from './model-spec.js';
export {
  ModeledFramework,
  type ModeledOptions,
  modeled,
  type VersionOptions,
  type ZNode,
} from './modeled-framework.js';
export { isNodeName, type NodeName, type NodeNameValue } from './node-name.js';
export {
  type Allowance,
  type Schema,
  type SchemaOptions,
  SchemaSet,
  schemaCheckedClient,
} from './schema-set.js';
export { jsonSerializer, type ModelSerializer } from './serializer.js';
export type { StandardSchemaV1 } from './standard-schema.js';
export {
  type VersionableFramework,
  type Versioned,
  VersionedModeledFramework,
} from './versioned-modeled-framework.js';
export {
  type AnyZPath,
  type NamedParameterValues,
  type PathParameters,
  type PositionalParameterValues,
  type SegmentParameter,
  ZPath,
  zpath,
} from './zpath.js';
