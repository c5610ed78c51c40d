// fast-check arbitraries derived from the layouts' jute schema, so every record gets random values without a
// hand-written generator per record. Test-only: not reachable from the package entry points.
import fc from 'fast-check';
import type { JuteLayout } from '../layouts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Random values of any jute layout; strings are valid Unicode (lone surrogates cannot round-trip UTF-8). */
export function arbitraryOf<T>(layout: JuteLayout<T>, options: ArbitraryOptions = {}): fc.Arbitrary<T> {
  return arbitrary(
    layout,
    options.strings ?? fc.string({ unit: 'binary', maxLength: 40 }),
  ) as fc.Arbitrary<T>;
}

/** Options of {@link arbitraryOf}. */
export interface ArbitraryOptions {
  /** The strings to use for ustring fields (default: any valid Unicode, up to 40 code points). */
  strings?: fc.Arbitrary<string>;
}

/** Strings of BMP characters only (no surrogates): Java's writer encodes exactly these as standard UTF-8. */
export const bmpStrings = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0xffff }))
    .map((c) => String.fromCharCode(c)),
  maxLength: 30,
});

function arbitrary(layout: JuteLayout<unknown>, strings: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  const jute = layout.jute;
  switch (jute.type) {
    case 'int':
      return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'long':
      return fc.bigInt({ min: INT64_MIN, max: INT64_MAX });
    case 'boolean':
      return fc.boolean();
    case 'ustring':
      return fc.option(strings, { freq: 8 });
    case 'buffer':
      return fc.option(
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        { freq: 8 },
      );
    case 'vector':
      return fc.option(fc.array(arbitrary(jute.element, strings), { maxLength: 5 }), { freq: 8 });
    case 'record': {
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const field of jute.fields) shape[field.property as string] = arbitrary(field, strings);
      return fc.record(shape);
    }
  }
}
