import { describe, expect, it } from 'vitest';
import { CorruptQueueItemError } from './errors.js';
import { bytesSerializer, deserializeItem, jsonSerializer, stringSerializer } from './serializers.js';

describe('serializers', () => {
  it('string: UTF-8 both ways, multi-byte characters included', () => {
    const bytes = stringSerializer.serialize('héllo ✓');
    expect(Buffer.from(bytes).toString('hex')).toBe(Buffer.from('héllo ✓', 'utf8').toString('hex'));
    expect(stringSerializer.deserialize(Buffer.from(bytes))).toBe('héllo ✓');
  });

  it('bytes: hands out a copy the consumer may keep', () => {
    const source = Buffer.from([1, 2, 3]);
    const out = bytesSerializer.deserialize(source);
    source[0] = 9;
    expect([...out]).toEqual([1, 2, 3]);
  });

  it('json: round-trips values and refuses undefined', () => {
    const json = jsonSerializer<{ a: number[] }>();
    expect(json.deserialize(Buffer.from(json.serialize({ a: [1, 2] })))).toEqual({ a: [1, 2] });
    expect(Buffer.from(json.serialize({ a: [] })).toString()).toBe('{"a":[]}');
    expect(() => jsonSerializer().serialize(undefined)).toThrow(/no JSON form/);
  });

  it('deserializeItem reports a failing serializer as an undeserializable item with its path', () => {
    let caught: unknown;
    try {
      deserializeItem(jsonSerializer(), Buffer.from('{not json'), '/q/queue-0000000001');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CorruptQueueItemError);
    expect((caught as CorruptQueueItemError).code).toBe('UNDESERIALIZABLE_ITEM');
    expect((caught as CorruptQueueItemError).path).toBe('/q/queue-0000000001');
  });
});
