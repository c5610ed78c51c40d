/**
 * Model serializers: a model to a node's bytes and back (Curator's `ModelSerializer`). The default writes
 * JSON as Jackson's `ObjectMapper` does for plain objects (compact, UTF-8, no spaces), so that Java's
 * `JacksonModelSerializer` reads what we write and we read what it writes. What round-trips:
 * - strings, booleans, null, arrays and objects: the same bytes as Jackson's, except the case of the hex
 *   digits in `\u001f`-style escapes of control characters (Jackson writes `\u001F`; both read either);
 * - numbers: JS writes `1` where Java writes the double `1.0`; each side reads the other's. Integers beyond
 *   2^53 lose precision when read into a JS number: write them as `bigint` (written as an integer literal,
 *   as Java writes a `long`) and read them with a schema or serializer that keeps them as strings or bigints;
 * - `undefined` fields are left out (Jackson writes `null` for a null field; a JS reader sees `null`);
 * - `NaN` and the infinities are refused (JSON has no such number; Jackson would write a non-JSON `NaN`);
 * - objects with `toJSON()` (a `Date`) are written as it returns (an ISO string; Jackson writes a
 *   `java.util.Date` as epoch milliseconds by default).
 */

/** Turns models into a node's bytes and back; either may throw (reported as a typed error with the path). */
export interface ModelSerializer<T> {
  serialize(model: T): Uint8Array;
  deserialize(bytes: Uint8Array): T;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Jackson-compatible JSON (see the module notes). `T` is what the caller promises the JSON holds. */
export function jsonSerializer<T = unknown>(): ModelSerializer<T> {
  return JSON_SERIALIZER as ModelSerializer<T>;
}

const JSON_SERIALIZER: ModelSerializer<unknown> = {
  serialize(model: unknown): Uint8Array {
    return encoder.encode(toJson(model));
  },
  deserialize(bytes: Uint8Array): unknown {
    if (bytes.length === 0) throw new SyntaxError('no content (an empty node)');
    return JSON.parse(decoder.decode(bytes));
  },
};

/** `JSON.stringify` with bigints written as integer literals and non-finite numbers refused. */
export function toJson(value: unknown): string {
  const seen = new Set<object>();
  const write = (item: unknown, where: string): string | undefined => {
    if (
      item !== null &&
      typeof item === 'object' &&
      typeof (item as { toJSON?: unknown }).toJSON === 'function'
    ) {
      item = (item as { toJSON: (key: string) => unknown }).toJSON(where);
    }
    switch (typeof item) {
      case 'string':
      case 'boolean':
        return JSON.stringify(item);
      case 'number':
        if (!Number.isFinite(item))
          throw new TypeError(`${where || 'the model'} is ${item}, which JSON cannot hold`);
        return JSON.stringify(item);
      case 'bigint':
        return item.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (item === null) return 'null';
    const object = item as object;
    if (seen.has(object)) throw new TypeError(`${where || 'the model'} refers to itself (a cycle)`);
    seen.add(object);
    let text: string;
    if (Array.isArray(object)) {
      text = `[${object.map((element, i) => write(element, `${where}[${i}]`) ?? 'null').join(',')}]`;
    } else {
      const fields: string[] = [];
      for (const [key, field] of Object.entries(object)) {
        const written = write(field, where ? `${where}.${key}` : key);
        if (written !== undefined) fields.push(`${JSON.stringify(key)}:${written}`);
      }
      text = `{${fields.join(',')}}`;
    }
    seen.delete(object);
    return text;
  };
  const text = write(value, '');
  if (text === undefined) throw new TypeError(`a model of type ${typeof value} has no JSON form`);
  return text;
}
