// Fixed-size jute primitives: int (4 bytes), long (8 bytes, as bigint) and boolean (1 byte), big-endian.
import type { Cursor } from './cursor';
import { invalid, type JuteLayout, JuteLayoutBase, type JuteType } from './layout';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

class Int32Layout extends JuteLayoutBase<number> {
  readonly jute: JuteType = { type: 'int' };
  readonly minSpan = 4;
  constructor(property?: string) {
    super(4, property);
  }
  size(value: number): number {
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) throw invalid('int32', value);
    return 4;
  }
  read(cursor: Cursor): number {
    return cursor.int32();
  }
  write(value: number, b: Buffer, offset: number): number {
    return b.writeInt32BE(value, offset);
  }
}

// buffer-layout's ns64be decodes to a double, which loses session ids and zxids above 2^53.
class Int64Layout extends JuteLayoutBase<bigint> {
  readonly jute: JuteType = { type: 'long' };
  readonly minSpan = 8;
  constructor(property?: string) {
    super(8, property);
  }
  size(value: bigint): number {
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX)
      throw invalid('int64 bigint', value);
    return 8;
  }
  read(cursor: Cursor): bigint {
    return cursor.int64();
  }
  write(value: bigint, b: Buffer, offset: number): number {
    return b.writeBigInt64BE(value, offset);
  }
}

class BoolLayout extends JuteLayoutBase<boolean> {
  readonly jute: JuteType = { type: 'boolean' };
  readonly minSpan = 1;
  constructor(property?: string) {
    super(1, property);
  }
  size(value: boolean): number {
    if (typeof value !== 'boolean') throw invalid('boolean', value);
    return 1;
  }
  // Java's reader takes any non-zero byte as true; so do we.
  read(cursor: Cursor): boolean {
    return cursor.byte() !== 0;
  }
  write(value: boolean, b: Buffer, offset: number): number {
    b[offset] = value ? 1 : 0;
    return offset + 1;
  }
}

/** jute `int`: a 32-bit signed big-endian integer. */
export function int32<P extends string | undefined = undefined>(property?: P): JuteLayout<number, P> {
  return new Int32Layout(property) as unknown as JuteLayout<number, P>;
}

/** jute `long`: a 64-bit signed big-endian integer, as a `bigint` (zxids and session ids exceed 2^53). */
export function int64<P extends string | undefined = undefined>(property?: P): JuteLayout<bigint, P> {
  return new Int64Layout(property) as unknown as JuteLayout<bigint, P>;
}

/** jute `boolean`: one byte, written as 0 or 1, read as non-zero = true. */
export function bool<P extends string | undefined = undefined>(property?: P): JuteLayout<boolean, P> {
  return new BoolLayout(property) as unknown as JuteLayout<boolean, P>;
}
