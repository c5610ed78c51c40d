/**
 * The hot parts of multi and multiRead, written and read at fixed offsets instead of through the generic
 * buffer-layout records: a multi of 10 setData cost ~15 µs to encode and ~9 µs to decode that way, about
 * eight times the whole request's raw cost. The generic records stay as the reference (ops/multi.test.ts
 * holds both paths to the same bytes) and for the reply bodies that carry strings (create paths, reads).
 *
 *   MultiHeader      { int type; boolean done; int err; }                        9 bytes
 *   CreateRequest    { ustring path; buffer data; vector<ACL> acl; int flags; }   (+ long ttl for createTTL)
 *   DeleteRequest    { ustring path; int version; }
 *   SetDataRequest   { ustring path; buffer data; int version; }
 *   CheckVersion     { ustring path; int version; }
 *   GetData/GetChildrenRequest { ustring path; boolean watch; }
 *   ACL              { int perms; Id { ustring scheme; ustring id; } }
 */
import { JuteCodecError } from '@zkwire/jute-codec';
import type { ACL } from '../acl.js';

/** Size of a MultiHeader. */
export const MULTI_HEADER_SIZE = 9;

/** Encoded size of a ustring (null never occurs in requests). */
export function ustringSize(text: string): number {
  return 4 + Buffer.byteLength(text, 'utf8');
}

/** Encoded size of a buffer field (null is -1 and no bytes). */
export function bufferSize(data: Uint8Array | null): number {
  return data === null ? 4 : 4 + data.length;
}

/** Encoded size of a vector<ACL>. */
export function aclSize(acl: readonly ACL[]): number {
  let size = 4;
  for (const entry of acl) size += 4 + ustringSize(entry.id.scheme) + ustringSize(entry.id.id);
  return size;
}

/** Writes a ustring; returns the next offset. */
export function writeUString(target: Buffer, offset: number, text: string): number {
  const length = target.write(text, offset + 4, 'utf8');
  target.writeInt32BE(length, offset);
  return offset + 4 + length;
}

/** Writes a buffer field; returns the next offset. */
export function writeBufferField(target: Buffer, offset: number, data: Uint8Array | null): number {
  if (data === null) {
    target.writeInt32BE(-1, offset);
    return offset + 4;
  }
  target.writeInt32BE(data.length, offset);
  target.set(data, offset + 4);
  return offset + 4 + data.length;
}

/** Writes a vector<ACL>; returns the next offset. */
export function writeAcl(target: Buffer, offset: number, acl: readonly ACL[]): number {
  target.writeInt32BE(acl.length, offset);
  let at = offset + 4;
  for (const entry of acl) {
    target.writeInt32BE(entry.perms, at);
    at = writeUString(target, at + 4, entry.id.scheme);
    at = writeUString(target, at, entry.id.id);
  }
  return at;
}

/** Writes a MultiHeader; returns the next offset. */
export function writeMultiHeader(target: Buffer, offset: number, type: number, done: boolean): number {
  target.writeInt32BE(type, offset);
  target[offset + 4] = done ? 1 : 0;
  target.writeInt32BE(-1, offset + 5);
  return offset + MULTI_HEADER_SIZE;
}

/** A MultiHeader read from a reply. */
export interface MultiHeaderView {
  type: number;
  done: boolean;
  err: number;
}

/** Reads a MultiHeader at `offset`, checking that it fits. */
export function readMultiHeader(payload: Buffer, offset: number): MultiHeaderView {
  if (offset + MULTI_HEADER_SIZE > payload.length) {
    throw new JuteCodecError('TRUNCATED', `MultiHeader at ${offset} runs past the frame`, { offset });
  }
  return {
    type: payload.readInt32BE(offset),
    done: payload[offset + 4] !== 0,
    err: payload.readInt32BE(offset + 5),
  };
}

/** Reads an int at `offset`, checking that it fits. */
export function readIntAt(payload: Buffer, offset: number, what: string): number {
  if (offset + 4 > payload.length) {
    throw new JuteCodecError('TRUNCATED', `${what} at ${offset} runs past the frame`, { offset });
  }
  return payload.readInt32BE(offset);
}
