import { describe, expect, it } from 'vitest';
import { JuteCodecError } from '../errors';
import { bool, buffer, int32, int64, record, ustring, vector } from './index';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

function encoded<T>(layout: { size(v: T): number; encode(v: T, b: Buffer, o?: number): number }, value: T) {
  const out = Buffer.alloc(layout.size(value));
  expect(layout.encode(value, out, 0)).toBe(out.length);
  return out.toString('hex');
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(JuteCodecError.isInstance(error)).toBe(true);
    return (error as JuteCodecError).code;
  }
  return undefined;
}

describe('primitives', () => {
  it('int32 is 4 bytes big-endian signed', () => {
    expect(encoded(int32(), -2)).toBe('fffffffe');
    expect(encoded(int32(), 0x7fffffff)).toBe('7fffffff');
    expect(int32().decode(hex('80000000'))).toBe(-2147483648);
  });

  it('int64 keeps all 64 bits as bigint', () => {
    expect(encoded(int64(), -1n)).toBe('ffffffffffffffff');
    expect(int64().decode(hex('7fffffffffffffff'))).toBe(2n ** 63n - 1n);
    expect(int64().decode(hex('0000000000000001 ff'))).toBe(1n);
    // a session id above 2^53 survives the round trip
    expect(int64().decode(hex(encoded(int64(), 0x1234567890abcdefn)))).toBe(0x1234567890abcdefn);
  });

  it('boolean writes 0/1 and reads any non-zero byte as true', () => {
    expect(encoded(bool(), true)).toBe('01');
    expect(encoded(bool(), false)).toBe('00');
    expect(bool().decode(hex('7f'))).toBe(true);
    expect(bool().decode(hex('00'))).toBe(false);
  });

  it('refuses values that do not fit', () => {
    expect(codeOf(() => int32().size(2 ** 31))).toBe('INVALID_VALUE');
    expect(codeOf(() => int32().size(1.5))).toBe('INVALID_VALUE');
    expect(codeOf(() => int64().size(5 as unknown as bigint))).toBe('INVALID_VALUE');
    expect(codeOf(() => int64().size(2n ** 63n))).toBe('INVALID_VALUE');
    expect(codeOf(() => bool().size(1 as unknown as boolean))).toBe('INVALID_VALUE');
  });

  it('reports truncation', () => {
    expect(codeOf(() => int32().decode(hex('000000')))).toBe('TRUNCATED');
    expect(codeOf(() => int64().decode(hex('00000000000000')))).toBe('TRUNCATED');
    expect(codeOf(() => bool().decode(Buffer.alloc(0)))).toBe('TRUNCATED');
  });
});

describe('ustring and buffer', () => {
  it('encode null as length -1 and empty as length 0', () => {
    expect(encoded(ustring(), null)).toBe('ffffffff');
    expect(encoded(ustring(), '')).toBe('00000000');
    expect(encoded(buffer(), null)).toBe('ffffffff');
    expect(encoded(buffer(), Buffer.alloc(0))).toBe('00000000');
    expect(ustring().decode(hex('ffffffff'))).toBeNull();
    expect(buffer().decode(hex('ffffffff'))).toBeNull();
  });

  it('use UTF-8 byte lengths', () => {
    expect(encoded(ustring(), 'é中')).toBe(`00000005${Buffer.from('é中').toString('hex')}`);
    expect(ustring().decode(hex('00000002 2f61'))).toBe('/a');
  });

  it('decode a buffer as a view of the source bytes', () => {
    const source = hex('00000003 010203 ff');
    const value = buffer().decode(source)!;
    expect([...value]).toEqual([1, 2, 3]);
    expect(value.buffer).toBe(source.buffer);
  });

  it('reject lengths below -1 and lengths past the end', () => {
    expect(codeOf(() => ustring().decode(hex('fffffffe')))).toBe('NEGATIVE_LENGTH');
    expect(codeOf(() => buffer().decode(hex('80000000')))).toBe('NEGATIVE_LENGTH');
    expect(codeOf(() => ustring().decode(hex('00000003 6161')))).toBe('LENGTH_PAST_END');
    expect(codeOf(() => buffer().decode(hex('7fffffff 00')))).toBe('LENGTH_PAST_END');
    expect(codeOf(() => ustring().decode(hex('0000')))).toBe('TRUNCATED');
  });

  it('refuse values of the wrong type', () => {
    expect(codeOf(() => ustring().size(3 as unknown as string))).toBe('INVALID_VALUE');
    expect(codeOf(() => buffer().size('ab' as unknown as Buffer))).toBe('INVALID_VALUE');
  });
});

describe('vector', () => {
  const strings = vector(ustring());

  it('encodes count then elements, -1 for null', () => {
    expect(encoded(strings, null)).toBe('ffffffff');
    expect(encoded(strings, [])).toBe('00000000');
    expect(encoded(strings, ['a', null])).toBe('00000002 0000000161 ffffffff'.replace(/ /g, ''));
    expect(strings.decode(hex('00000002 0000000161 ffffffff'))).toEqual(['a', null]);
  });

  it('rejects a count the remaining bytes cannot hold before allocating', () => {
    expect(codeOf(() => strings.decode(hex('7fffffff')))).toBe('LENGTH_PAST_END');
    expect(codeOf(() => strings.decode(hex('00000002 00000000')))).toBe('LENGTH_PAST_END');
    expect(codeOf(() => strings.decode(hex('fffffff0')))).toBe('NEGATIVE_LENGTH');
  });
});

describe('record', () => {
  interface Pair {
    n: number;
    s: string | null;
  }
  const pair = record<Pair>('Pair', [int32('n'), ustring('s')]);

  it('encodes fields in order with no framing of its own', () => {
    expect(encoded(pair, { n: 1, s: 'x' })).toBe('000000010000000178');
    expect(pair.decode(hex('000000010000000178'))).toEqual({ n: 1, s: 'x' });
    expect(pair.getSpan(hex('000000010000000178 ffff'))).toBe(9);
  });

  it('is strict: a missing field is an error naming it, not skipped bytes', () => {
    expect(() => pair.size({ n: 1 } as Pair)).toThrow(/Pair\.s is missing/);
    expect(codeOf(() => pair.size({ n: 1 } as Pair))).toBe('INVALID_VALUE');
    expect(() => pair.size({ n: 'x', s: null } as unknown as Pair)).toThrow(/Pair\.n: expected int32/);
  });

  it('names the field where decoding failed', () => {
    expect(() => pair.decode(hex('00000001 000000'))).toThrow(/Pair\.s: truncated/);
  });

  it('refuses a target without room', () => {
    expect(codeOf(() => pair.encode({ n: 1, s: 'x' }, Buffer.alloc(8), 0))).toBe('INVALID_VALUE');
  });

  it('nests as a field and as a vector element', () => {
    const outer = record<{ p: Pair; ps: Pair[] | null }>('Outer', [pair.replicate('p'), vector(pair, 'ps')]);
    const value = { p: { n: 2, s: null }, ps: [{ n: 3, s: '' }] };
    const bytes = hex(encoded(outer, value));
    expect(bytes.toString('hex')).toBe('00000002ffffffff000000010000000300000000');
    expect(outer.decode(bytes)).toEqual(value);
  });
});
