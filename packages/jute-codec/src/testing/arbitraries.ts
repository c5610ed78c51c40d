// fast-check arbitraries derived from the layouts' jute schema, so every record gets random values without a
// hand-written generator per record. Test-only: not reachable from the package entry points.
import fc from 'fast-check';
import type { JuteLayout } from '../layouts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Random values of any jute layout; strings are valid Unicode (lone surrogates cannot round-trip UTF-8). */
export function arbitraryOf<T>(layout: JuteLayout<T>): fc.Arbitrary<T> {
  return arbitrary(layout) as fc.Arbitrary<T>;
}

function arbitrary(layout: JuteLayout<unknown>): fc.Arbitrary<unknown> {
  const jute = layout.jute;
  switch (jute.type) {
    case 'int':
      return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'long':
      return fc.bigInt({ min: INT64_MIN, max: INT64_MAX });
    case 'boolean':
      return fc.boolean();
    case 'ustring':
      return fc.option(fc.string({ unit: 'binary', maxLength: 40 }), { freq: 8 });
    case 'buffer':
      return fc.option(
        fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
        { freq: 8 },
      );
    case 'vector':
      return fc.option(fc.array(arbitrary(jute.element), { maxLength: 5 }), { freq: 8 });
    case 'record': {
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const field of jute.fields) shape[field.property as string] = arbitrary(field);
      return fc.record(shape);
    }
  }
}
