// Compile-time checks of modelSpec's inferred model and parameter types (tsc checks this file: each
// `@ts-expect-error` fails that check if the line below it compiles).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { InvalidModelArgumentError } from './errors.js';
import { type ModelSpec, modelSpec } from './model-spec.js';
import { jsonSerializer } from './serializer.js';
import { zpath } from './zpath.js';

describe('modelSpec types', () => {
  it('takes the model type from the schema, else the serializer, else unknown', () => {
    const schema = z.object({ max: z.number(), owner: z.string().optional() });
    expectTypeOf(modelSpec({ path: '/t/{id}/quota', schema })).toEqualTypeOf<
      ModelSpec<{ max: number; owner?: string | undefined }, ['id']>
    >();
    expectTypeOf(modelSpec({ path: '/a', serializer: jsonSerializer<number[]>() })).toEqualTypeOf<
      ModelSpec<number[], []>
    >();
    expectTypeOf(modelSpec({ path: zpath('/a/{x}/{y}') })).toEqualTypeOf<ModelSpec<unknown, ['x', 'y']>>();
  });

  it('checks resolved() names at compile time', () => {
    const spec = modelSpec({ path: '/t/{id}/quota', schema: z.object({ max: z.number() }) });
    expect(spec.resolved({ id: 'a' }).path.fullPath()).toBe('/t/a/quota');
    // @ts-expect-error there is no parameter `tenant`
    expect(() => spec.resolved({ tenant: 'a' })).toThrow(InvalidModelArgumentError);
    expectTypeOf(spec.child('limits').path.parameterNames).toEqualTypeOf<string[]>();
    expectTypeOf(spec.child('{extra}')).toEqualTypeOf<ModelSpec<{ max: number }, ['id', 'extra']>>();
  });
});
