/**
 * Compressed node data, as Curator writes and reads it (Curator 5.8's `enableCompression()`, CURATOR-725, and
 * the `compressed()`/`decompressed()` calls before it): the whole data of a node is one GZIP member, made by
 * `GzipCompressionProvider` (DEFLATE at the default level, a 10-byte header, CRC32 and length trailer).
 * Node's zlib writes the same format, and reads what Curator writes.
 *
 * With compression, Curator compresses the data of every node it creates or sets and decompresses the data
 * of every node it reads, but not the parents it makes on the way (they get no data at all), so a reader
 * takes zero-length data as empty rather than as a broken GZIP stream (Curator's reader would fail on it).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { BadRecipeDataError, InvalidRecipeArgumentError } from './recipe-errors.js';

/**
 * Compresses and decompresses node data (Curator's `CompressionProvider`), given the node's path, so a
 * provider may compress some paths only. Both calls are synchronous; a throw from `decompress` is reported as
 * BAD_DATA for that node.
 */
export interface CompressionProvider {
  compress(path: string, data: Uint8Array): Uint8Array;
  decompress(path: string, data: Uint8Array): Uint8Array;
}

/** The `compression` option of the recipes and caches: `'gzip'` (Curator's default provider) or your own. */
export type RecipeCompression = 'gzip' | CompressionProvider;

/** Curator's `GzipCompressionProvider`. */
export const gzipCompression: CompressionProvider = {
  compress: (_path, data) => new Uint8Array(gzipSync(data)),
  decompress: (_path, data) => new Uint8Array(gunzipSync(data)),
};

/** Checks a `compression` option (undefined: none). Throws INVALID_ARGUMENT before anything is sent. */
export function resolveCompression(compression: unknown): CompressionProvider | undefined {
  if (compression === undefined) return undefined;
  if (compression === 'gzip') return gzipCompression;
  const provider = compression as Partial<CompressionProvider> | null;
  if (
    typeof provider === 'object' &&
    provider !== null &&
    typeof provider.compress === 'function' &&
    typeof provider.decompress === 'function'
  ) {
    return provider as CompressionProvider;
  }
  throw new InvalidRecipeArgumentError(
    'compression',
    `must be 'gzip' or an object with compress and decompress, got ${String(compression)}`,
  );
}

/** The bytes to send for `data` at `path`: compressed when a provider is given. */
export function compressData(
  provider: CompressionProvider | undefined,
  path: string,
  data: Uint8Array,
): Uint8Array {
  return provider === undefined ? data : provider.compress(path, data);
}

/**
 * The data a node at `path` holds, from the bytes read: decompressed when a provider is given (zero-length
 * data stays empty). Throws BadRecipeDataError when the bytes are not what the provider reads.
 */
export function decompressData(
  provider: CompressionProvider | undefined,
  path: string,
  data: Uint8Array,
): Uint8Array {
  if (provider === undefined || data.length === 0) return data;
  try {
    return provider.decompress(path, data);
  } catch (error) {
    throw new BadRecipeDataError(`${path}: the data is not compressed as the compression option reads it`, {
      cause: error,
    });
  }
}
