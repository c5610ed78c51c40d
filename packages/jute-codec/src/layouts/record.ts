/// <reference path="../types/buffer-layout.d.ts" />
import { Structure } from 'buffer-layout';
import { JuteCodecError } from '../errors';
import { Cursor, checkRange } from './cursor';
import { decodeWith, encodeWith, invalid, type JuteLayout, type JuteType, spanWith } from './layout';

/** The layouts of a record's fields: each names a key of `T` and carries that key's value type. */
export type FieldsOf<T> = { [K in keyof T & string]: JuteLayout<T[K], K> }[keyof T & string][];

/**
 * A jute record: a buffer-layout `Structure` of jute layouts in `.jute` field order. Unlike a plain
 * Structure it is strict: a missing field is an INVALID_VALUE error (a plain Structure would skip it and
 * leave stale bytes), and errors carry the path of the field that failed.
 */
class RecordLayout<T extends object> extends Structure<T> {
  readonly jute: JuteType;
  readonly minSpan: number;
  private readonly juteFields: readonly JuteLayout<unknown, string>[];

  constructor(
    readonly name: string,
    fields: JuteLayout<unknown, string>[],
    property?: string,
  ) {
    super(fields as never, property);
    this.juteFields = fields;
    this.jute = { type: 'record', name, fields };
    this.minSpan = fields.reduce((sum, field) => sum + field.minSpan, 0);
  }

  size(value: T): number {
    if (typeof value !== 'object' || value === null) throw invalid(`${this.name} object`, value);
    let size = 0;
    for (const field of this.juteFields) {
      const item = (value as Record<string, unknown>)[field.property];
      if (item === undefined) throw this.missing(field.property);
      try {
        size += field.size(item);
      } catch (error) {
        throw this.within(field.property, error);
      }
    }
    return size;
  }

  read(cursor: Cursor): T {
    const value: Record<string, unknown> = {};
    for (const field of this.juteFields) {
      try {
        value[field.property] = field.read(cursor);
      } catch (error) {
        throw this.within(field.property, error);
      }
    }
    return value as T;
  }

  write(value: T, b: Buffer, offset: number): number {
    for (const field of this.juteFields) {
      offset = field.write((value as Record<string, unknown>)[field.property], b, offset);
    }
    return offset;
  }

  override decode(b: Buffer, offset = 0): T {
    return decodeWith(this, b, offset);
  }

  override encode(value: T, b: Buffer, offset = 0): number {
    return encodeWith(this, value, b, offset);
  }

  override getSpan(b?: Buffer, offset = 0): number {
    return spanWith(this, this.span, b, offset);
  }

  private missing(property: string): JuteCodecError {
    return new JuteCodecError('INVALID_VALUE', `${this.name}.${property} is missing`);
  }

  // Prefixes the failing field to the message, so nested errors read "GetDataResponse.stat.mzxid: ...".
  private within(property: string, error: unknown): unknown {
    if (!(error instanceof JuteCodecError)) return error;
    const message = error.message.startsWith(`${this.name}.`)
      ? error.message
      : `${this.name}.${property}: ${error.message}`;
    return new JuteCodecError(error.code, message, { offset: error.offset, cause: error.cause });
  }
}

/** Defines a strict jute record layout named after its `.jute` class, fields in `.jute` order. */
export function record<T extends object, P extends string | undefined = undefined>(
  name: string,
  fields: FieldsOf<T>,
  property?: P,
): JuteLayout<T, P> & { readonly name: string } {
  return new RecordLayout<T>(
    name,
    fields as JuteLayout<unknown, string>[],
    property,
  ) as unknown as JuteLayout<T, P> & { readonly name: string };
}

/** A record's codec as the other packages use it. */
export interface JuteRecord<T> {
  /** The `.jute` class name. */
  readonly name: string;
  /** The record's layout, to nest it in other records or vectors. */
  readonly layout: JuteLayout<T>;
  /** Encoded size in bytes; throws INVALID_VALUE for a value that does not fit the schema. */
  size(value: T): number;
  /** Encodes at `offset`; returns the bytes written. Throws JuteCodecError. */
  encode(value: T, target: Buffer, offset: number): number;
  /** Decodes from `source[offset, end)`; never reads at or past `end`. Throws JuteCodecError. */
  decode(source: Buffer, offset?: number, end?: number): { value: T; offset: number };
}

/** Wraps a record layout as a {@link JuteRecord}. */
export function juteRecord<T>(layout: JuteLayout<T> & { readonly name: string }): JuteRecord<T> {
  return {
    name: layout.name,
    layout,
    size: (value) => layout.size(value),
    encode: (value, target, offset) => layout.encode(value, target, offset),
    decode(source, offset = 0, end = source?.length) {
      checkRange(source, offset, end);
      const cursor = new Cursor(source, offset, end);
      const value = layout.read(cursor);
      return { value, offset: cursor.offset };
    },
  };
}
