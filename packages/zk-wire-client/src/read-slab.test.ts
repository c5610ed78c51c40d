/**
 * The read regions (read-slab.ts): bytes handed out are never overwritten by later reads, whatever the read
 * sizes, and a region is never smaller than the minimum nor larger than the maximum.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_READ_BYTES, MIN_READ_BYTES, ReadSlab } from './read-slab.js';

describe('ReadSlab', () => {
  it('never writes over bytes handed out, and offers regions within the bounds (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }),
        (fills) => {
          const slab = new ReadSlab();
          const taken: { view: Buffer; copy: Buffer }[] = [];
          let seed = 1;
          for (const fill of fills) {
            const region = slab.region();
            expect(region.length).toBeGreaterThanOrEqual(MIN_READ_BYTES);
            expect(region.length).toBeLessThanOrEqual(MAX_READ_BYTES);
            // A read of 1 byte up to the whole region, as the socket would write it.
            const bytes = Math.max(1, Math.round(fill * region.length));
            region.fill(seed++ & 0xff, 0, bytes);
            const view = slab.take(region, bytes);
            expect(view.length).toBe(bytes);
            taken.push({ view, copy: Buffer.from(view) });
          }
          for (const { view, copy } of taken) expect(view.equals(copy)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
