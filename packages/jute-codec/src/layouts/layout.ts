/// <reference path="../types/buffer-layout.d.ts" />
import { Layout } from 'buffer-layout';
import { JuteCodecError } from '../errors';
import { Cursor } from './cursor';

/** The jute type a layout stands for; used to describe schemas (golden tests generate Java from it). */
export type JuteType =
  | { readonly type: 'int' | 'long' | 'boolean' | 'ustring' | 'buffer' }
  | { readonly type: 'vector'; readonly element: JuteLayout<unknown> }
  | { readonly type: 'record'; readonly name: string; readonly fields: readonly JuteLayout<unknown>[] };

/**
 * A `buffer-layout` Layout of one jute type. Besides the buffer-layout API (`decode`, `encode`,
 * `getSpan`, `replicate`) it can size a value before encoding, and reads through a bounds-checked cursor.
 */
export interface JuteLayout<T, P extends string | undefined = string | undefined> {
  /** The field name when used inside a record. */
  readonly property: P;
  /** What jute type this is. */
  readonly jute: JuteType;
  /** The fewest bytes an encoded value can take (a null or empty one). */
  readonly minSpan: number;
  /** Encoded size of `value` in bytes; throws INVALID_VALUE for a value of the wrong type. */
  size(value: T): number;
  /** buffer-layout API: decodes at `offset` up to the end of `b`. */
  decode(b: Buffer, offset?: number): T;
  /** buffer-layout API: encodes at `offset`, returns the bytes written. */
  encode(value: T, b: Buffer, offset?: number): number;
  /** buffer-layout API: the byte length of the encoded value at `offset`. */
  getSpan(b?: Buffer, offset?: number): number;
  /** The same layout under another field name. */
  replicate<Q extends string>(property: Q): JuteLayout<T, Q>;
  /** Reads one value at the cursor and advances it. */
  read(cursor: Cursor): T;
  /** Writes `value` at `offset` (room already checked) and returns the offset after it. */
  write(value: T, b: Buffer, offset: number): number;
}

/** Base of all jute layouts: the buffer-layout entry points are built on `read`, `write` and `size`. */
export abstract class JuteLayoutBase<T> extends Layout<T> {
  abstract readonly jute: JuteType;
  abstract readonly minSpan: number;
  abstract size(value: T): number;
  abstract read(cursor: Cursor): T;
  abstract write(value: T, b: Buffer, offset: number): number;

  override decode(b: Buffer, offset = 0): T {
    return this.read(new Cursor(b, offset, b.length));
  }

  override encode(value: T, b: Buffer, offset = 0): number {
    const size = this.size(value);
    if (offset < 0 || size > b.length - offset) {
      throw new JuteCodecError('INVALID_VALUE', `target has no room for ${size} bytes at offset ${offset}`);
    }
    return this.write(value, b, offset) - offset;
  }

  override getSpan(b?: Buffer, offset = 0): number {
    if (this.span >= 0) return this.span;
    if (b === undefined) throw new RangeError('indeterminate span');
    const cursor = new Cursor(b, offset, b.length);
    this.read(cursor);
    return cursor.offset - offset;
  }
}

/** Builds an INVALID_VALUE error naming what was expected and what came. */
export function invalid(expected: string, value: unknown): JuteCodecError {
  const got =
    value === null
      ? 'null'
      : typeof value === 'object'
        ? (value.constructor?.name ?? 'object')
        : typeof value;
  return new JuteCodecError('INVALID_VALUE', `expected ${expected}, got ${got}${describe(value)}`);
}

function describe(value: unknown): string {
  return typeof value === 'number' || typeof value === 'bigint' ? ` ${String(value)}` : '';
}
