import { Buffer } from 'node:buffer';
import { JuteCodecError } from './errors';
import type { JuteRecord } from './layouts';

/** Encodes `value` as `record` into a new Buffer of exactly its size (one allocation). */
export function encode<T>(record: JuteRecord<T>, value: T): Buffer {
  const size = record.size(value);
  // allocUnsafe is safe here: strict records write every byte (checked below).
  const target = Buffer.allocUnsafe(size);
  const written = record.encode(value, target, 0);
  if (written !== size) {
    throw new JuteCodecError('INVALID_VALUE', `${record.name}: wrote ${written} of ${size} bytes`);
  }
  return target;
}

/** Decodes `bytes` as `record`; the record must fill the buffer exactly, else TRAILING_BYTES. */
export function decode<T>(record: JuteRecord<T>, bytes: Buffer): T {
  const { value, offset } = record.decode(bytes, 0, bytes.length);
  if (offset !== bytes.length) {
    throw new JuteCodecError(
      'TRAILING_BYTES',
      `${record.name}: ${bytes.length - offset} bytes left after the record`,
      { offset },
    );
  }
  return value;
}
