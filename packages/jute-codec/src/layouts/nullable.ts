// Length-prefixed jute types. buffer-layout's lengths are unsigned, but jute writes -1 for null, so these are
// our own: an int length (or element count), -1 = null, then the bytes (or elements).
import { Buffer } from 'node:buffer';
import type { Cursor } from './cursor';
import { invalid, type JuteLayout, JuteLayoutBase, type JuteType } from './layout';

class UstringLayout extends JuteLayoutBase<string | null> {
  readonly jute: JuteType = { type: 'ustring' };
  readonly minSpan = 4;
  constructor(property?: string) {
    super(-1, property);
  }
  size(value: string | null): number {
    if (value === null) return 4;
    if (typeof value !== 'string') throw invalid('string or null', value);
    return 4 + Buffer.byteLength(value, 'utf8');
  }
  read(cursor: Cursor): string | null {
    const n = cursor.length('ustring', 1);
    if (n < 0) return null;
    const start = cursor.offset;
    cursor.offset += n;
    return cursor.buf.toString('utf8', start, start + n);
  }
  write(value: string | null, b: Buffer, offset: number): number {
    if (value === null) return b.writeInt32BE(-1, offset);
    const n = b.write(value, offset + 4, 'utf8');
    b.writeInt32BE(n, offset);
    return offset + 4 + n;
  }
}

class BufferLayout extends JuteLayoutBase<Uint8Array | null> {
  readonly jute: JuteType = { type: 'buffer' };
  readonly minSpan = 4;
  constructor(property?: string) {
    super(-1, property);
  }
  size(value: Uint8Array | null): number {
    if (value === null) return 4;
    if (!(value instanceof Uint8Array)) throw invalid('Uint8Array or null', value);
    return 4 + value.length;
  }
  // A view, not a copy: the frame reader never reuses memory it has handed out, so the view stays valid.
  read(cursor: Cursor): Buffer | null {
    const n = cursor.length('buffer', 1);
    if (n < 0) return null;
    const start = cursor.offset;
    cursor.offset += n;
    return cursor.buf.subarray(start, start + n);
  }
  write(value: Uint8Array | null, b: Buffer, offset: number): number {
    if (value === null) return b.writeInt32BE(-1, offset);
    b.writeInt32BE(value.length, offset);
    b.set(value, offset + 4);
    return offset + 4 + value.length;
  }
}

class VectorLayout<T> extends JuteLayoutBase<T[] | null> {
  readonly jute: JuteType;
  readonly minSpan = 4;
  constructor(
    readonly element: JuteLayout<T>,
    property?: string,
  ) {
    super(-1, property);
    this.jute = { type: 'vector', element: element as JuteLayout<unknown> };
  }
  size(value: T[] | null): number {
    if (value === null) return 4;
    if (!Array.isArray(value)) throw invalid('array or null', value);
    let size = 4;
    for (const item of value) size += this.element.size(item);
    return size;
  }
  read(cursor: Cursor): T[] | null {
    // Each element takes at least minSpan bytes, so a count the bytes cannot hold fails before allocating.
    const n = cursor.length('vector', this.element.minSpan);
    if (n < 0) return null;
    const items = new Array<T>(n);
    for (let i = 0; i < n; i++) items[i] = this.element.read(cursor);
    return items;
  }
  write(value: T[] | null, b: Buffer, offset: number): number {
    if (value === null) return b.writeInt32BE(-1, offset);
    offset = b.writeInt32BE(value.length, offset);
    for (const item of value) offset = this.element.write(item, b, offset);
    return offset;
  }
}

/** jute `ustring`: int byte length (-1 = null), then UTF-8. */
export function ustring<P extends string | undefined = undefined>(
  property?: P,
): JuteLayout<string | null, P> {
  return new UstringLayout(property) as unknown as JuteLayout<string | null, P>;
}

/** jute `buffer`: int length (-1 = null), then raw bytes. Decodes to a Buffer view of the source. */
export function buffer<P extends string | undefined = undefined>(property?: P): JuteLayout<Buffer | null, P> {
  // Typed by what decode returns; encode takes any Uint8Array.
  return new BufferLayout(property) as unknown as JuteLayout<Buffer | null, P>;
}

/** jute `vector<T>`: int element count (-1 = null), then the elements one after another. */
export function vector<T, P extends string | undefined = undefined>(
  element: JuteLayout<T>,
  property?: P,
): JuteLayout<T[] | null, P> {
  return new VectorLayout(element, property) as unknown as JuteLayout<T[] | null, P>;
}
