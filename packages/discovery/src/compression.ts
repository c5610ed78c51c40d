/**
 * Compressed instance data, as curator-x-discovery writes and reads it on a Curator client built with
 * `enableCompression()` (Curator 5.8, CURATOR-725): the instance's JSON as one GZIP member, the format of
 * Curator's GzipCompressionProvider. Node's zlib writes that format, and reads what Curator writes.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { BadInstanceDataError, InvalidDiscoveryArgumentError } from './errors.js';

/** Compresses and decompresses a node's data, given its path (Curator's `CompressionProvider`); synchronous. */
export interface DiscoveryCompressionProvider {
  compress(path: string, data: Uint8Array): Uint8Array;
  decompress(path: string, data: Uint8Array): Uint8Array;
}

/** The `compression` option: `'gzip'` (Curator's default provider) or your own provider. */
export type DiscoveryCompression = 'gzip' | DiscoveryCompressionProvider;

const gzip: DiscoveryCompressionProvider = {
  compress: (_path, data) => new Uint8Array(gzipSync(data)),
  decompress: (_path, data) => new Uint8Array(gunzipSync(data)),
};

/** The codec a discovery applies to instance bytes; the identity without compression. */
export interface InstanceCodec {
  encode(path: string, data: Uint8Array): Uint8Array;
  /** Throws BadInstanceDataError (with the path) for bytes the provider cannot read. */
  decode(path: string, data: Uint8Array): Uint8Array;
}

const identity: InstanceCodec = { encode: (_path, data) => data, decode: (_path, data) => data };

/** Checks a `compression` option (undefined: none); throws InvalidDiscoveryArgumentError before anything is sent. */
export function instanceCodec(compression: unknown): InstanceCodec {
  if (compression === undefined) return identity;
  const provider =
    compression === 'gzip' ? gzip : (compression as Partial<DiscoveryCompressionProvider> | null);
  if (
    typeof provider !== 'object' ||
    provider === null ||
    typeof provider.compress !== 'function' ||
    typeof provider.decompress !== 'function'
  ) {
    throw new InvalidDiscoveryArgumentError(
      'compression',
      `must be 'gzip' or an object with compress and decompress, got ${String(compression)}`,
    );
  }
  const { compress, decompress } = provider as DiscoveryCompressionProvider;
  return {
    encode: (path, data) => compress.call(provider, path, data),
    decode(path, data) {
      try {
        return decompress.call(provider, path, data);
      } catch (cause) {
        throw new BadInstanceDataError(
          path,
          'the data is not compressed as the compression option reads it',
          {
            cause,
          },
        );
      }
    },
  };
}
