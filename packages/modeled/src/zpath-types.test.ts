// Compile-time checks of zpath's inferred parameter names: this file is type-checked by `tsc -p
// packages/modeled/tsconfig.json`, and each `@ts-expect-error` fails that check if the line below it compiles.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidModelArgumentError, type PathParameters, type ZPath, zpath } from './index.js';

describe('zpath parameter types', () => {
  it('infers the parameter names of a literal template', () => {
    expectTypeOf<PathParameters<'/tenants/{id}/quota'>>().toEqualTypeOf<['id']>();
    expectTypeOf<PathParameters<'/a/{x}/b/{}'>>().toEqualTypeOf<['x', '']>();
    expectTypeOf<PathParameters<'/a/b'>>().toEqualTypeOf<[]>();
    expectTypeOf<PathParameters<string>>().toEqualTypeOf<string[]>();
    expectTypeOf(zpath('/tenants/{id}/quota')).toEqualTypeOf<ZPath<['id']>>();
  });

  it('accepts the right names and refuses others at compile time', () => {
    const p = zpath('/tenants/{id}/quota');
    expectTypeOf(p.resolve({ id: 't1' })).toEqualTypeOf<ZPath<[]>>();
    expect(p.resolve({ id: 't1' }).fullPath()).toBe('/tenants/t1/quota');
    expect(p.resolve('t1').fullPath()).toBe('/tenants/t1/quota');

    // The wrong name: refused by the compiler, and at run time.
    // @ts-expect-error there is no parameter `tenant`
    expect(() => p.resolve({ tenant: 't1' })).toThrow(InvalidModelArgumentError);
    // @ts-expect-error `id` is missing
    expect(() => p.resolve({})).toThrow(InvalidModelArgumentError);
    // @ts-expect-error two values for one parameter
    expect(() => p.resolve('a', 'b')).toThrow(InvalidModelArgumentError);
    // @ts-expect-error an object without nodeName() is not a node name
    expect(() => p.resolve({ id: { x: 1 } })).toThrow(InvalidModelArgumentError);
  });

  it('resolves anonymous {} parameters by position only', () => {
    const p = zpath('/a/{}/b/{}');
    expect(p.resolve('x', 2).fullPath()).toBe('/a/x/b/2');
    // @ts-expect-error the object form is not available with {} parameters
    expect(() => p.resolve({ '': 'x' })).toThrow(InvalidModelArgumentError);
    // @ts-expect-error one value short
    expect(() => p.resolve('x')).toThrow(InvalidModelArgumentError);
  });

  it('tracks parameters added by child()', () => {
    const p = zpath('/tenants').child('{tenant}').child('quota');
    expectTypeOf(p).toEqualTypeOf<ZPath<['tenant']>>();
    expect(p.resolve({ tenant: 'acme' }).fullPath()).toBe('/tenants/acme/quota');
    // @ts-expect-error the parameter is `tenant`
    expect(() => p.resolve({ id: 'acme' })).toThrow(InvalidModelArgumentError);
  });

  it('types a template known only at run time loosely', () => {
    const template: string = '/x/{y}';
    const p = zpath(template);
    expectTypeOf(p).toEqualTypeOf<ZPath<string[]>>();
    expect(p.resolve({ y: 'z' }).fullPath()).toBe('/x/z');
    expect(() => p.resolve({ w: 'z' })).toThrow(/there is no parameter \{w\}/);
  });
});
