import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressData, decompressData, gzipCompression, resolveCompression } from './compression.js';
import { BadRecipeDataError, InvalidRecipeArgumentError } from './recipe-errors.js';

/** What Curator's GzipCompressionProvider writes for empty data on JDK 16+ (its COMPRESSED_EMPTY_BYTES). */
const CURATOR_EMPTY = Uint8Array.of(31, 139, 8, 0, 0, 0, 0, 0, 0, 255, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0);

describe('compression (Curator GZIP)', () => {
  it('writes one GZIP member that any gzip reader decodes, and reads it back', () => {
    const data = new TextEncoder().encode('hello, '.repeat(50));
    const compressed = compressData(gzipCompression, '/p', data);
    expect([...compressed.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]); // magic, DEFLATE
    expect(compressed.length).toBeLessThan(data.length);
    expect(decompressData(gzipCompression, '/p', compressed)).toEqual(data);
    expect(decompressData(gzipCompression, '/p', new Uint8Array(gzipSync(data)))).toEqual(data);
  });

  it("reads Curator's compressed empty data as empty, and zero-length data as empty", () => {
    expect(decompressData(gzipCompression, '/p', CURATOR_EMPTY)).toEqual(new Uint8Array(0));
    expect(decompressData(gzipCompression, '/p', new Uint8Array(0))).toEqual(new Uint8Array(0));
    expect(
      decompressData(gzipCompression, '/p', compressData(gzipCompression, '/p', new Uint8Array(0))),
    ).toEqual(new Uint8Array(0));
  });

  it('reports data that is not GZIP as BAD_DATA with the path', () => {
    const read = () => decompressData(gzipCompression, '/plain', new TextEncoder().encode('plain'));
    expect(read).toThrow(BadRecipeDataError);
    expect(read).toThrow(/\/plain/);
  });

  it('passes data through without a provider, and takes a provider of your own', () => {
    const data = Uint8Array.of(1, 2, 3);
    expect(compressData(undefined, '/p', data)).toBe(data);
    expect(decompressData(undefined, '/p', data)).toBe(data);
    const reversing = {
      compress: (_path: string, bytes: Uint8Array) => Uint8Array.from(bytes).reverse(),
      decompress: (_path: string, bytes: Uint8Array) => Uint8Array.from(bytes).reverse(),
    };
    expect(resolveCompression(reversing)).toBe(reversing);
    expect(compressData(reversing, '/p', data)).toEqual(Uint8Array.of(3, 2, 1));
  });

  it('refuses a compression option that is neither gzip nor a provider', () => {
    expect(resolveCompression(undefined)).toBeUndefined();
    expect(resolveCompression('gzip')).toBe(gzipCompression);
    for (const bad of ['zstd', true, null, {}, { compress: () => new Uint8Array() }]) {
      expect(() => resolveCompression(bad)).toThrow(InvalidRecipeArgumentError);
    }
  });
});
