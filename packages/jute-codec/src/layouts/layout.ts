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
    return decodeWith(this, b, offset);
  }

  override encode(value: T, b: Buffer, offset = 0): number {
    return encodeWith(this, value, b, offset);
  }

  override getSpan(b?: Buffer, offset = 0): number {
    return spanWith(this, this.span, b, offset);
  }
}

type ReadWrite<T> = Pick<JuteLayout<T>, 'size' | 'read' | 'write'>;

/** buffer-layout `decode` on top of `read`: decodes up to the end of `b`. */
export function decodeWith<T>(layout: ReadWrite<T>, b: Buffer, offset: number): T {
  return layout.read(new Cursor(b, offset, b.length));
}

/** buffer-layout `encode` on top of `size` and `write`: checks the room first, returns bytes written. */
export function encodeWith<T>(layout: ReadWrite<T>, value: T, b: Buffer, offset: number): number {
  const size = layout.size(value);
  if (!Number.isInteger(offset) || offset < 0 || size > b.length - offset) {
    throw new JuteCodecError('INVALID_VALUE', `target has no room for ${size} bytes at offset ${offset}`);
  }
  return layout.write(value, b, offset) - offset;
}

/** buffer-layout `getSpan`: the fixed span, or the length of the encoded value at `offset`. */
export function spanWith<T>(
  layout: ReadWrite<T>,
  span: number,
  b: Buffer | undefined,
  offset: number,
): number {
  if (span >= 0) return span;
  if (b === undefined) throw new RangeError('indeterminate span');
  const cursor = new Cursor(b, offset, b.length);
  layout.read(cursor);
  return cursor.offset - offset;
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
