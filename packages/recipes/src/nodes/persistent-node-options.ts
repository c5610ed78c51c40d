/**
 * The arguments of a PersistentNode (Curator's `nodes.PersistentNode(client, mode, useProtection, basePath,
 * initData[, ttl][, useParentCreation])`), their checks (done in the constructor, before anything is sent) and
 * the naming rules that follow from the mode: which name the first create asks for, and which mode a re-create
 * uses so that it yields the same name again.
 */
import {
  type CompressionProvider,
  type RecipeCompression,
  resolveCompression,
} from '../internal-common/compression.js';
import { newProtectedPrefix } from '../internal-common/protected-name.js';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { validateRecipePath } from '../internal-common/validate.js';

/** Every create mode a PersistentNode may keep (the client's `CreateMode`). */
export const PERSISTENT_NODE_MODES = [
  'persistent',
  'ephemeral',
  'persistent-sequential',
  'ephemeral-sequential',
  'container',
  'persistent-ttl',
  'persistent-sequential-ttl',
] as const;

/** One of {@link PERSISTENT_NODE_MODES}. */
export type PersistentNodeMode = (typeof PERSISTENT_NODE_MODES)[number];

/** Options of a PersistentNode. */
export interface PersistentNodeOptions {
  /** How the node is created (Curator's CreateMode). */
  mode: PersistentNodeMode;
  /** The node's data (Curator's `initData`, required there too); a string is written as UTF-8. */
  data: Uint8Array | string;
  /** Name the node `_c_<uuid>-<name>` (Curator's `withProtection()`), so a lost create can be found. Default false. */
  useProtection?: boolean;
  /** The TTL of the TTL modes, in ms (1 to 0xFF_FFFF_FFFF); refused for the other modes. */
  ttlMs?: number;
  /** Create missing parents as containers (Curator's `creatingParentContainersIfNeeded`). Default true. */
  useParentCreation?: boolean;
  /**
   * Leave the node in place on `close()` instead of deleting it. Default false; PersistentTtlNode's parent
   * uses it, since that node is meant to outlive its owner until the server reaps it.
   */
  keepOnClose?: boolean;
  /**
   * Compress the data written to the node (a Curator client's `enableCompression()`, CURATOR-725): `'gzip'`
   * writes what Curator's GzipCompressionProvider reads. `getData()` still gives the data uncompressed.
   */
  compression?: RecipeCompression;
}

/** The largest TTL a server accepts (it keeps TTLs in 40 bits of the ephemeral owner field). */
export const MAX_TTL_MS = 0xff_ffff_ffff;

/** The checked arguments, with the defaults applied and the data as bytes. */
export interface PersistentNodeSettings {
  basePath: string;
  mode: PersistentNodeMode;
  data: Uint8Array;
  /** `_c_<uuid>-` when protected: made once, so every re-create asks for the same name. */
  protectionPrefix: string | undefined;
  ttlMs: number | undefined;
  useParentCreation: boolean;
  keepOnClose: boolean;
  compression: CompressionProvider | undefined;
}

/** True for the modes whose name gets a sequence number. */
export function isSequentialMode(mode: PersistentNodeMode): boolean {
  return mode.includes('sequential');
}

/** True for the modes whose node ends with the session. */
export function isEphemeralMode(mode: PersistentNodeMode): boolean {
  return mode.startsWith('ephemeral');
}

/** True for the TTL modes. */
export function isTtlMode(mode: PersistentNodeMode): boolean {
  return mode.endsWith('-ttl');
}

/**
 * The mode of a re-create once the node's name is known (Curator's `getCreateMode(true)`): a sequential mode
 * becomes its plain form, so the re-created node keeps its name, sequence digits included.
 */
export function recreateModeOf(mode: PersistentNodeMode): PersistentNodeMode {
  switch (mode) {
    case 'ephemeral-sequential':
      return 'ephemeral';
    case 'persistent-sequential':
      return 'persistent';
    case 'persistent-sequential-ttl':
      return 'persistent-ttl';
    default:
      return mode;
  }
}

/** The parent of `path` (`/` for a top-level node). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}

/** `child` under `parent`. */
export function childPath(parent: string, child: string): string {
  return parent === '/' ? `/${child}` : `${parent}/${child}`;
}

/** The path the first create asks for: the base path, with the protection prefix on its last segment. */
export function firstCreatePath(basePath: string, protectionPrefix: string | undefined): string {
  if (protectionPrefix === undefined) return basePath;
  const name = basePath.slice(basePath.lastIndexOf('/') + 1);
  return childPath(parentOf(basePath), `${protectionPrefix}${name}`);
}

function validateMode(mode: unknown): PersistentNodeMode {
  if (!PERSISTENT_NODE_MODES.includes(mode as PersistentNodeMode)) {
    throw new InvalidRecipeArgumentError(
      'mode',
      `must be one of ${PERSISTENT_NODE_MODES.join(', ')}, got ${String(mode)}`,
    );
  }
  return mode as PersistentNodeMode;
}

/** Node data as bytes: a Uint8Array (copied, so later changes by the caller do not leak in) or a string. */
export function validateNodeData(data: unknown, what = 'data'): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  if (data instanceof Uint8Array) return Uint8Array.from(data);
  throw new InvalidRecipeArgumentError(what, 'must be a Uint8Array or a string');
}

/** A TTL in ms: an integer from 1 to {@link MAX_TTL_MS}. */
export function validateTtl(ttlMs: unknown): number {
  if (typeof ttlMs !== 'number' || !Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > MAX_TTL_MS) {
    throw new InvalidRecipeArgumentError(
      'ttlMs',
      `must be an integer from 1 to ${MAX_TTL_MS}, got ${String(ttlMs)}`,
    );
  }
  return ttlMs;
}

function validateFlag(value: unknown, what: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new InvalidRecipeArgumentError(what, 'must be a boolean');
  return value;
}

/** Checks every argument; throws InvalidRecipeArgumentError on the first bad one. */
export function persistentNodeSettings(basePath: unknown, options: unknown): PersistentNodeSettings {
  const path = validateRecipePath(basePath, 'basePath');
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRecipeArgumentError('options', 'must be an object with at least mode and data');
  }
  const given = options as Partial<Record<keyof PersistentNodeOptions, unknown>>;
  const mode = validateMode(given.mode);
  const data = validateNodeData(given.data);
  let ttlMs: number | undefined;
  if (isTtlMode(mode)) ttlMs = validateTtl(given.ttlMs);
  else if (given.ttlMs !== undefined) {
    throw new InvalidRecipeArgumentError('ttlMs', `applies only to the TTL modes, not to ${mode}`);
  }
  const useProtection = validateFlag(given.useProtection, 'useProtection', false);
  return {
    basePath: path,
    mode,
    data,
    protectionPrefix: useProtection ? newProtectedPrefix() : undefined,
    ttlMs,
    useParentCreation: validateFlag(given.useParentCreation, 'useParentCreation', true),
    keepOnClose: validateFlag(given.keepOnClose, 'keepOnClose', false),
    compression: resolveCompression(given.compression),
  };
}

/** Events of {@link PersistentNode}; each carries the node's full path. */
export interface PersistentNodeEvents {
  /** The node exists for the first time under this object: created by it, or an existing one adopted. */
  created: [path: string];
  /** The node was seen missing (deleted by someone else, or gone with an expired session); a re-create follows. */
  deleted: [path: string];
  /** The node is back after a `deleted`. */
  recreated: [path: string];
  /** A failure that retrying will not fix (e.g. NOAUTH); the loop waits for a reconnection or a `setData`. */
  error: [error: unknown];
}

/** `latent` before `start()`, `started`, then `closed`. */
export type PersistentNodeState = 'latent' | 'started' | 'closed';

/** The first delay between two failed rounds while connected (doubled up to 2 s). */
