// Malformed input: every record, fed random bytes, truncated and mutated encodings, either decodes or
// raises a JuteCodecError with a stable code. Nothing else is thrown, and nothing hangs (vector counts are
// checked against the bytes left before any element is read).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../codec';
import { JuteCodecErrorCode } from '../errors';
import type { JuteRecord } from '../layouts';
import { arbitraryOf } from '../testing/arbitraries';
import { outcome } from '../testing/outcome';
import { records } from './index';

const all = Object.values(records) as JuteRecord<unknown>[];
const codes = new Set<string>(Object.values(JuteCodecErrorCode));

// Bytes biased towards small and -1-ish lengths, so random input gets deep into the records.
const noise = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc
    .array(fc.oneof(fc.constantFrom(0, 0, 0, 1, 2, 0x7f, 0x80, 0xff), fc.nat(255)), { maxLength: 200 })
    .map((a) => Uint8Array.from(a)),
);

describe.each(all.map((r) => [r.name, r] as const))('%s on malformed input', (_name, record) => {
  it('random bytes decode or raise a coded JuteCodecError (property)', () => {
    fc.assert(
      fc.property(noise, (raw) => {
        const result = outcome(() => decode(record, Buffer.from(raw)));
        if ('code' in result) expect(codes.has(result.code)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('every strict prefix of an encoding is refused as truncated or past the end (property)', () => {
    fc.assert(
      fc.property(arbitraryOf(record.layout), fc.nat(), (value, cut) => {
        const bytes = encode(record, value);
        if (bytes.length === 0) return;
        const prefix = bytes.subarray(0, cut % bytes.length);
        const result = outcome(() => decode(record, prefix));
        expect(['TRUNCATED', 'LENGTH_PAST_END']).toContain((result as { code: string }).code);
      }),
      { numRuns: 200 },
    );
  });

  it('a mutated encoding decodes or raises a coded JuteCodecError (property)', () => {
    fc.assert(
      fc.property(arbitraryOf(record.layout), fc.nat(), fc.nat(255), (value, at, byte) => {
        const bytes = Buffer.from(encode(record, value));
        if (bytes.length === 0) return;
        bytes[at % bytes.length] = byte;
        const result = outcome(() => decode(record, bytes));
        if ('code' in result) expect(codes.has(result.code)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('an appended byte is TRAILING_BYTES', () => {
    fc.assert(
      fc.property(arbitraryOf(record.layout), (value) => {
        const bytes = Buffer.concat([encode(record, value), Buffer.from([0])]);
        expect(outcome(() => decode(record, bytes))).toEqual({ code: 'TRAILING_BYTES' });
      }),
      { numRuns: 50 },
    );
  });
});

describe('lengths that claim more than there is', () => {
  it('a vector count of 2^31-1 fails at once without allocating', () => {
    const bytes = Buffer.from('7fffffff', 'hex');
    expect(outcome(() => decode(records.GetChildrenResponse, bytes))).toEqual({ code: 'LENGTH_PAST_END' });
    expect(outcome(() => decode(records.WhoAmIResponse, bytes))).toEqual({ code: 'LENGTH_PAST_END' });
  });

  it('negative lengths other than -1 are NEGATIVE_LENGTH', () => {
    const bytes = Buffer.from('fffffffe', 'hex');
    expect(outcome(() => decode(records.SyncResponse, bytes))).toEqual({ code: 'NEGATIVE_LENGTH' });
    expect(outcome(() => decode(records.SetSASLResponse, bytes))).toEqual({ code: 'NEGATIVE_LENGTH' });
    expect(outcome(() => decode(records.GetEphemeralsResponse, bytes))).toEqual({ code: 'NEGATIVE_LENGTH' });
  });
});
