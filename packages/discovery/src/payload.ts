/**
 * The instance payload on the wire. Curator annotates `getPayload()` with
 * `@JsonTypeInfo(use = CLASS, defaultImpl = Object.class)`, so Jackson writes the payload's Java class with it:
 * objects carry an `"@class"` property first, String/Integer/Boolean/Double values are written bare, other
 * values (Long, lists) as a `[className, value]` array. Ours is plain JSON with the class name beside it
 * (`payloadClass`), so a payload read from Java and written back keeps its class and still deserializes there.
 */
import { InvalidDiscoveryArgumentError } from './errors.js';

/** A JSON value: what a payload may hold. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a Java reader whose payload class is a `Map` accepts; Jackson's own choice for a JSON object. */
export const DEFAULT_OBJECT_CLASS = 'java.util.LinkedHashMap';
const LIST_CLASS = 'java.util.ArrayList';
const LONG_CLASS = 'java.lang.Long';
const CLASS_PROPERTY = '@class';
const JAVA_CLASS_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;

const isInt32 = (value: number): boolean => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;

/** True for `{}`-made objects (a class instance, a Map or a Date is not JSON). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Throws unless `value` is a JSON value with no cycles, no non-finite numbers and only plain objects. */
export function validateJson(value: unknown, what = 'payload', seen = new Set<object>()): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new InvalidDiscoveryArgumentError(what, `holds a non-finite number (${value})`);
    return value;
  }
  if (typeof value !== 'object') {
    throw new InvalidDiscoveryArgumentError(what, `holds a ${typeof value}, which JSON cannot carry`);
  }
  if (seen.has(value)) throw new InvalidDiscoveryArgumentError(what, 'holds a cycle');
  seen.add(value);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) validateJson(item, `${what}[${index}]`, seen);
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) validateJson(item, `${what}.${key}`, seen);
  } else {
    throw new InvalidDiscoveryArgumentError(
      what,
      `holds a ${value.constructor?.name ?? 'non-plain'} object, not JSON`,
    );
  }
  seen.delete(value);
  return value as JsonValue;
}

/** Throws unless `name` looks like a Java class name (`com.acme.Details`, `java.util.ImmutableCollections$Map1`). */
export function validatePayloadClass(name: unknown): string | undefined {
  if (name === undefined || name === null) return undefined;
  if (typeof name !== 'string' || !JAVA_CLASS_NAME.test(name)) {
    throw new InvalidDiscoveryArgumentError('payloadClass', `must be a Java class name, got ${String(name)}`);
  }
  return name;
}

/** Whether Jackson writes a value of this class bare (its "natural" types) rather than in a wrapper array. */
function isNaturalFor(value: JsonValue, javaClass: string): boolean {
  switch (javaClass) {
    case 'java.lang.String':
      return typeof value === 'string';
    case 'java.lang.Boolean':
      return typeof value === 'boolean';
    case 'java.lang.Integer':
      return typeof value === 'number' && isInt32(value);
    case 'java.lang.Double':
      return typeof value === 'number' && !Number.isInteger(value);
    default:
      return false;
  }
}

/**
 * The payload as the JSON text Jackson would write for it. With no class given: objects become
 * `java.util.LinkedHashMap` (an object already holding `"@class"` keeps it), arrays `java.util.ArrayList`,
 * integers beyond 32 bits `java.lang.Long`; strings, booleans, other numbers and null are written bare.
 */
export function encodePayload(payload: JsonValue | undefined, payloadClass: string | undefined): string {
  if (payload === undefined || payload === null) return 'null';
  if (isPlainObject(payload)) {
    const { [CLASS_PROPERTY]: ownClass, ...rest } = payload;
    const javaClass = payloadClass ?? (typeof ownClass === 'string' ? ownClass : DEFAULT_OBJECT_CLASS);
    // Written by hand so "@class" comes first, as Jackson writes it (JS puts integer-like keys first).
    const fields = Object.entries(rest).map(
      ([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`,
    );
    return `{${[`"${CLASS_PROPERTY}":${JSON.stringify(javaClass)}`, ...fields].join(',')}}`;
  }
  if (payloadClass !== undefined) {
    return isNaturalFor(payload, payloadClass)
      ? JSON.stringify(payload)
      : JSON.stringify([payloadClass, payload]);
  }
  if (Array.isArray(payload)) return JSON.stringify([LIST_CLASS, payload]);
  if (typeof payload === 'number' && Number.isInteger(payload) && !isInt32(payload)) {
    return JSON.stringify([LONG_CLASS, payload]);
  }
  return JSON.stringify(payload);
}

/** A payload read from JSON: the value without its type tag, and the Java class the tag named. */
export interface DecodedPayload {
  payload: JsonValue;
  payloadClass: string | undefined;
}

/**
 * Reads a payload as Jackson wrote it: `"@class"` is taken out of objects, `[className, value]` arrays are
 * unwrapped (Jackson reads any two-element array starting with a string that way too), the rest is as is.
 */
export function decodePayload(raw: JsonValue | undefined): DecodedPayload {
  if (raw === undefined || raw === null) return { payload: null, payloadClass: undefined };
  if (isPlainObject(raw)) {
    const { [CLASS_PROPERTY]: javaClass, ...rest } = raw;
    if (typeof javaClass === 'string') return { payload: rest as JsonValue, payloadClass: javaClass };
    return { payload: raw, payloadClass: undefined };
  }
  if (Array.isArray(raw) && raw.length === 2 && typeof raw[0] === 'string') {
    return { payload: raw[1] as JsonValue, payloadClass: raw[0] };
  }
  return { payload: raw, payloadClass: undefined };
}
