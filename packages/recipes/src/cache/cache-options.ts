/**
 * Options of a {@link CuratorCache} (Curator's `CuratorCache.Options` and storage choice), checked before
 * anything is sent.
 */
import {
  type CompressionProvider,
  type RecipeCompression,
  resolveCompression,
} from '../internal-common/compression.js';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { validateRecipePath } from '../internal-common/validate.js';

/** How the cache learns of changes. */
export const CacheEngine = {
  /** Pick from the server: a persistent watch on 3.6+, one-shot watches on 3.5. */
  auto: 'auto',
  /** One persistent (recursive) watch on the root (server 3.6+); Curator's `CuratorCacheImpl`. */
  persistentWatch: 'persistent-watch',
  /** One-shot data and child watches on every cached node (any server); Curator's TreeCache way. */
  oneShotWatches: 'one-shot-watches',
} as const;
/** One of {@link CacheEngine}. */
export type CacheEngine = (typeof CacheEngine)[keyof typeof CacheEngine];

/** Options of {@link CuratorCache}. */
export interface CuratorCacheOptions {
  /** Cache only the root node, never its children (Curator's `SINGLE_NODE_CACHE`). Default false. */
  singleNode?: boolean;
  /**
   * Keep each node's bytes (default true). With false only path and Stat are kept (Curator's
   * `CuratorCacheStorage.dataNotCached()`); `created` and `changed` events still carry the new bytes.
   */
  keepData?: boolean;
  /**
   * Depth below the root to cache: 0 is the root only (as `singleNode`), 1 the root and its children, and so
   * on (TreeCache's `maxDepth`). Default: the whole subtree.
   */
  maxDepth?: number;
  /** Which engine keeps the cache current; default `'auto'`. */
  engine?: CacheEngine;
  /**
   * Decompress every node's data as it is read (Curator's `COMPRESSED_DATA`, or a Curator client with
   * `enableCompression()`): `'gzip'` reads what Curator's GzipCompressionProvider writes. Zero-length data
   * stays empty; data that does not decompress is kept as read and reported (`error`, BAD_DATA).
   */
  compression?: RecipeCompression;
  /**
   * Clear the local copy on close (default true). False keeps the last state readable after close
   * (Curator's `DO_NOT_CLEAR_ON_CLOSE`); it is no longer kept current.
   */
  clearOnClose?: boolean;
}

/** Options after checking, with defaults applied. */
export interface ResolvedCacheOptions {
  readonly maxDepth: number;
  readonly keepData: boolean;
  readonly engine: CacheEngine;
  readonly compression: CompressionProvider | undefined;
  readonly clearOnClose: boolean;
}

const KNOWN = ['singleNode', 'keepData', 'maxDepth', 'engine', 'compression', 'clearOnClose'];
const ENGINES = new Set<unknown>(Object.values(CacheEngine));

/** Throws INVALID_ARGUMENT for an options value that is not an object or has a key outside `allowed`. */
export function rejectUnknownOptions(options: unknown, allowed: readonly string[], what: string): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRecipeArgumentError(
      'options',
      `must be an object (${what} options), got ${String(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new InvalidRecipeArgumentError(
        `options.${key}`,
        `is not a ${what} option (known: ${allowed.join(', ')})`,
      );
    }
  }
}

/** A cache root: `/` or any valid recipe path. */
export function validateCachePath(path: unknown): string {
  return path === '/' ? '/' : validateRecipePath(path);
}

/** Checks the options and applies the defaults; throws INVALID_ARGUMENT before anything is sent. */
export function resolveCacheOptions(options: unknown): ResolvedCacheOptions {
  if (options === undefined) {
    return {
      maxDepth: Number.POSITIVE_INFINITY,
      keepData: true,
      engine: 'auto',
      compression: undefined,
      clearOnClose: true,
    };
  }
  rejectUnknownOptions(options, KNOWN, 'cache');
  const { singleNode, keepData, maxDepth, engine, compression, clearOnClose } =
    options as CuratorCacheOptions;
  for (const [name, value] of [
    ['singleNode', singleNode],
    ['keepData', keepData],
    ['clearOnClose', clearOnClose],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new InvalidRecipeArgumentError(name, `must be a boolean, got ${String(value)}`);
    }
  }
  if (
    maxDepth !== undefined &&
    (typeof maxDepth !== 'number' ||
      !(Number.isInteger(maxDepth) || maxDepth === Number.POSITIVE_INFINITY) ||
      maxDepth < 0)
  ) {
    throw new InvalidRecipeArgumentError('maxDepth', `must be an integer >= 0, got ${String(maxDepth)}`);
  }
  if (singleNode === true && maxDepth !== undefined && maxDepth !== 0) {
    throw new InvalidRecipeArgumentError('maxDepth', 'must be 0 (or absent) with singleNode: true');
  }
  if (engine !== undefined && !ENGINES.has(engine)) {
    throw new InvalidRecipeArgumentError(
      'engine',
      `must be one of ${[...ENGINES].join(', ')}, got ${String(engine)}`,
    );
  }
  return {
    maxDepth: singleNode === true ? 0 : (maxDepth ?? Number.POSITIVE_INFINITY),
    keepData: keepData ?? true,
    engine: engine ?? 'auto',
    compression: resolveCompression(compression),
    clearOnClose: clearOnClose ?? true,
  };
}
