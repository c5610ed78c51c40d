import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { instanceCodec } from './compression.js';
import { BadInstanceDataError, InvalidDiscoveryArgumentError } from './errors.js';

const json = new TextEncoder().encode('{"name":"a","id":"b"}');

describe('instance compression', () => {
  it('leaves the bytes alone without the option', () => {
    const codec = instanceCodec(undefined);
    expect(codec.encode('/s/a/b', json)).toBe(json);
    expect(codec.decode('/s/a/b', json)).toBe(json);
  });

  it("'gzip' writes one GZIP member and reads any gzip writer's", () => {
    const codec = instanceCodec('gzip');
    const encoded = codec.encode('/s/a/b', json);
    expect([...encoded.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    expect(codec.decode('/s/a/b', encoded)).toEqual(json);
    expect(codec.decode('/s/a/b', new Uint8Array(gzipSync(json)))).toEqual(json);
  });

  it('reports bytes that do not decompress as BAD_INSTANCE with the path', () => {
    const read = () => instanceCodec('gzip').decode('/s/a/plain', json);
    expect(read).toThrow(BadInstanceDataError);
    expect(read).toThrow(/\/s\/a\/plain/);
  });

  it('takes a provider of its own and refuses anything else', () => {
    const reversing = {
      compress: (_path: string, data: Uint8Array) => Uint8Array.from(data).reverse(),
      decompress: (_path: string, data: Uint8Array) => Uint8Array.from(data).reverse(),
    };
    const codec = instanceCodec(reversing);
    expect(codec.decode('/p', codec.encode('/p', json))).toEqual(json);
    for (const bad of ['zstd', true, null, {}, { compress: () => json }]) {
      expect(() => instanceCodec(bad)).toThrow(InvalidDiscoveryArgumentError);
    }
  });
});
