import { describe, expect, it } from 'vitest';
import { jsonSerializer, toJson } from './serializer.js';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('jsonSerializer (Jackson-compatible JSON)', () => {
  const json = jsonSerializer<unknown>();

  it('writes compact JSON as Jackson writes plain objects, in field order', () => {
    const model = { name: 'ann', age: 31, tags: ['a', 'b'], nested: { ok: true, none: null }, pi: 3.25 };
    expect(text(json.serialize(model))).toBe(
      '{"name":"ann","age":31,"tags":["a","b"],"nested":{"ok":true,"none":null},"pi":3.25}',
    );
    expect(text(json.serialize('é ü \n "q"'))).toBe('"é ü \\n \\"q\\""');
  });

  it('writes bigints as integer literals (a Java long) and reads Jackson doubles such as 1.0', () => {
    expect(text(json.serialize({ id: 9007199254740993n }))).toBe('{"id":9007199254740993}');
    expect(json.deserialize(Buffer.from('{"ratio":1.0,"big":1.5E10}'))).toEqual({ ratio: 1, big: 1.5e10 });
  });

  it('leaves out undefined fields and writes undefined array elements as null, as JSON.stringify', () => {
    const model = { a: undefined, b: [undefined, 1], c: () => 1 };
    expect(toJson(model)).toBe(JSON.stringify(model));
  });

  it('uses toJSON (a Date is its ISO string)', () => {
    const at = new Date(Date.UTC(2026, 0, 2));
    expect(toJson({ at })).toBe('{"at":"2026-01-02T00:00:00.000Z"}');
  });

  it('refuses what JSON cannot hold: NaN, infinities, cycles, a bare undefined', () => {
    expect(() => json.serialize({ x: Number.NaN })).toThrow(/x is NaN/);
    expect(() => json.serialize([Number.POSITIVE_INFINITY])).toThrow(/\[0\] is Infinity/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => json.serialize(cyclic)).toThrow(/cycle/);
    expect(() => json.serialize(undefined)).toThrow(/no JSON form/);
  });

  it('refuses empty nodes and bytes that are not UTF-8 JSON', () => {
    expect(() => json.deserialize(new Uint8Array(0))).toThrow(/no content/);
    expect(() => json.deserialize(Uint8Array.of(0xff, 0xfe))).toThrow();
    expect(() => json.deserialize(Buffer.from('{"a":'))).toThrow(SyntaxError);
  });
});
