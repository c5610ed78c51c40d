/**
 * @zkwire/modeled: typed models at parameterized ZooKeeper paths (Curator's ModeledFramework from
 * curator-x-async): paths checked by the compiler, Standard Schema validation, versioned compare-and-set,
 * cached models, schema sets and migrations. The README maps each Curator class to ours. One export
 * statement per module, sorted by path.
 */
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
export { isNodeName, type NodeName, type NodeNameValue } from './node-name.js';
export type { StandardSchemaV1 } from './standard-schema.js';
export {
  type AnyZPath,
  type NamedParameterValues,
  type PathParameters,
  type PositionalParameterValues,
  type SegmentParameter,
  ZPath,
  zpath,
} from './zpath.js';
