import { describe, expect, it } from 'vitest';
import { BadInstanceDataError } from './errors.js';
import { deserializeInstance, instanceToJson, serializeInstance } from './instance-serializer.js';
import { decodePayload, encodePayload } from './payload.js';
import { createServiceInstance } from './service-instance.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('instance JSON (JsonInstanceSerializer layout)', () => {
  it("writes Curator's field order and nulls; enabled last only when asked", () => {
    const instance = createServiceInstance({
      name: 'a',
      id: 'b',
      address: null,
      registrationTimeUTC: 7,
      enabled: false,
    });
    expect(instanceToJson(instance)).toBe(
      '{"name":"a","id":"b","address":null,"port":null,"sslPort":null,"payload":null,"registrationTimeUTC":7,"serviceType":"DYNAMIC","uriSpec":null}',
    );
    expect(instanceToJson(instance, { writeEnabled: true })).toMatch(/,"uriSpec":null,"enabled":false}$/);
  });

  it("reads with Curator's defaults for missing fields and ignores unknown ones", () => {
    const read = deserializeInstance(bytes('{"extra":1,"serviceType":"STATIC"}'), '/s/x');
    expect(read).toMatchObject({
      name: '',
      id: '',
      address: null,
      port: null,
      sslPort: null,
      payload: null,
      registrationTimeUTC: 0,
      serviceType: 'STATIC',
      uriSpec: null,
      enabled: true,
    });
    expect(deserializeInstance(bytes('{"enabled":false}'), '/s/x').enabled).toBe(false);
  });

  it('refuses corrupt nodes with a BadInstanceDataError naming the path', () => {
    const cases = [
      '',
      'not json',
      '[1,2]',
      '"text"',
      '{"port":"80"}',
      '{"serviceType":"WEIRD"}',
      '{"uriSpec":{"parts":[1]}}',
    ];
    for (const text of cases) {
      let caught: unknown;
      try {
        deserializeInstance(bytes(text), '/services/s/bad');
      } catch (error) {
        caught = error;
      }
      expect(caught, text).toBeInstanceOf(BadInstanceDataError);
      expect((caught as BadInstanceDataError).path).toBe('/services/s/bad');
      expect((caught as BadInstanceDataError).code).toBe('BAD_INSTANCE');
    }
    expect(() => deserializeInstance(new Uint8Array([0x7b, 0xff, 0x7d]), '/p')).toThrow(BadInstanceDataError);
  });

  it('round-trips every field', () => {
    const instance = createServiceInstance({
      name: 'n',
      id: 'i',
      address: 'h',
      port: 1,
      sslPort: 2,
      payload: { a: [1, { b: null }] },
      payloadClass: 'com.acme.Details',
      registrationTimeUTC: 3,
      serviceType: 'PERMANENT',
      uriSpec: '{scheme}://{address}',
      enabled: false,
    });
    const back = deserializeInstance(serializeInstance(instance, { writeEnabled: true }), '/p');
    expect({ ...back, uriSpec: back.uriSpec?.parts }).toEqual({
      ...instance,
      uriSpec: instance.uriSpec?.parts,
    });
  });
});

describe('payload @class handling', () => {
  it("writes Jackson's shapes: @class first in objects, wrapper arrays for Long and lists, natural values bare", () => {
    expect(encodePayload({ zone: 'x' }, undefined)).toBe('{"@class":"java.util.LinkedHashMap","zone":"x"}');
    expect(encodePayload({ 1: 'one', '@class': 'com.acme.X' }, undefined)).toBe(
      '{"@class":"com.acme.X","1":"one"}',
    );
    expect(encodePayload(['a'], undefined)).toBe('["java.util.ArrayList",["a"]]');
    expect(encodePayload(2 ** 40, undefined)).toBe('["java.lang.Long",1099511627776]');
    expect(encodePayload(5, 'java.lang.Long')).toBe('["java.lang.Long",5]');
    expect(encodePayload(5, 'java.lang.Integer')).toBe('5');
    expect(encodePayload('s', undefined)).toBe('"s"');
    expect(encodePayload(1.5, undefined)).toBe('1.5');
    expect(encodePayload(true, undefined)).toBe('true');
    expect(encodePayload(null, 'x.Y')).toBe('null');
  });

  it('reads the type tag apart from the value, and gives it back when written again', () => {
    expect(decodePayload({ '@class': 'com.acme.D', zone: 'x' })).toEqual({
      payload: { zone: 'x' },
      payloadClass: 'com.acme.D',
    });
    expect(decodePayload(['java.lang.Long', 5])).toEqual({ payload: 5, payloadClass: 'java.lang.Long' });
    expect(decodePayload({ plain: true })).toEqual({ payload: { plain: true }, payloadClass: undefined });
    expect(decodePayload('s')).toEqual({ payload: 's', payloadClass: undefined });
    const { payload, payloadClass } = decodePayload({
      '@class': 'java.util.ImmutableCollections$Map1',
      zone: 'eu-1',
    });
    expect(encodePayload(payload, payloadClass)).toBe(
      '{"@class":"java.util.ImmutableCollections$Map1","zone":"eu-1"}',
    );
  });
});
