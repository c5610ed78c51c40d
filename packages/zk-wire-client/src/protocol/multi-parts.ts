/**
 * The hot parts of multi and multiRead, written and read at fixed offsets instead of through the generic
 * buffer-layout records, which cost several times the whole request's raw cost. The generic records stay as the reference (multi.test.ts
 * holds both paths to the same bytes) and for the reply bodies that carry strings (create paths, reads).
 * Ints are written through the codec's ViewedFrame (one DataView per frame): Buffer#writeInt32BE checks its
 * arguments on every call, and a multi makes several such writes per op; four byte stores per int cost more
 * than one DataView write. Frames are sized exactly before they are written (encodeMulti checks that the last offset
 * is the frame's end), so the checks are not needed.
 *
 *   MultiHeader      { int type; boolean done; int err; }                        9 bytes
 *   CreateRequest    { ustring path; buffer data; vector<ACL> acl; int flags; }   (+ long ttl for createTTL)
 *   DeleteRequest    { ustring path; int version; }
 *   SetDataRequest   { ustring path; buffer data; int version; }
 *   CheckVersion     { ustring path; int version; }
 *   GetData/GetChildrenRequest { ustring path; boolean watch; }
 *   ACL              { int perms; Id { ustring scheme; ustring id; } }
 */
import { Buffer } from 'node:buffer';
import { JuteCodecError } from '@zkwire/jute-codec';
import { int32At, putString, utf8Length, type ViewedFrame } from '@zkwire/jute-codec/internal';
import type { ACL } from '../util/types.js';

/** Size of a MultiHeader. */
export const MULTI_HEADER_SIZE = 9;

/** Encoded size of a ustring (null never occurs in requests). */
export function ustringSize(text: string): number {
  return 4 + utf8Length(text);
}

/**
 * The UTF-8 bytes of recent request paths. A multi writes the same paths call after call, and measuring then
 * writing each one through Buffer#write costs more than a Map lookup and a byte copy (measuring and writing
 * them in JavaScript, as the codec does for short strings, reads each character three times). Bounded: the
 * whole table is dropped when it is full. The ops of a multi get their paths' bytes from the client's table
 * of checked paths instead (CheckedPaths), with no lookup here; this table serves creates (whose paths are
 * checked apart) and multiRead.
 */
const pathBytesCache = new Map<string, Buffer>();
const PATH_CACHE_ENTRIES = 1024;

/** The UTF-8 bytes of a server path (kept for the next call; never modified by a caller). */
export function pathBytes(path: string): Buffer {
  let bytes = pathBytesCache.get(path);
  if (bytes === undefined) {
    bytes = Buffer.from(path, 'utf8');
    if (pathBytesCache.size >= PATH_CACHE_ENTRIES) pathBytesCache.clear();
    pathBytesCache.set(path, bytes);
  }
  return bytes;
}

/** Encoded size of a path (a ustring). */
export function pathSize(path: string): number {
  return 4 + pathBytes(path).length;
}

/** Writes a path (a ustring); returns the next offset. */
export function writePath(out: ViewedFrame, offset: number, path: string): number {
  return writePathBytes(out, offset, pathBytes(path));
}

/** Writes a path (a ustring) given as its UTF-8 bytes; returns the next offset. */
export function writePathBytes(out: ViewedFrame, offset: number, bytes: Uint8Array): number {
  return out.copy(out.int32(offset, bytes.length), bytes);
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
export function writeUString(out: ViewedFrame, offset: number, text: string): number {
  return putString(out.bytes, text, utf8Length(text), offset);
}

/** Writes a buffer field; returns the next offset. */
export function writeBufferField(out: ViewedFrame, offset: number, data: Uint8Array | null): number {
  if (data === null) return out.int32(offset, -1);
  return out.copy(out.int32(offset, data.length), data);
}

/** Writes a vector<ACL>; returns the next offset. */
export function writeAcl(out: ViewedFrame, offset: number, acl: readonly ACL[]): number {
  let at = out.int32(offset, acl.length);
  for (const entry of acl) {
    at = out.int32(at, entry.perms);
    at = writeUString(out, at, entry.id.scheme);
    at = writeUString(out, at, entry.id.id);
  }
  return at;
}

/** Writes a MultiHeader; returns the next offset. */
export function writeMultiHeader(out: ViewedFrame, offset: number, type: number, done: boolean): number {
  return out.int32(out.byte(out.int32(offset, type), done ? 1 : 0), -1);
}

/** A MultiHeader read from a reply. */
export interface MultiHeaderView {
  type: number;
  done: boolean;
  err: number;
}

/** Throws TRUNCATED unless `size` bytes at `offset` lie within the payload. */
export function checkFits(payload: Buffer, offset: number, size: number, what: string): void {
  if (offset + size > payload.length) {
    throw new JuteCodecError('TRUNCATED', `${what} at ${offset} runs past the frame`, { offset });
  }
}

/** Reads a MultiHeader at `offset`, checking that it fits. */
export function readMultiHeader(payload: Buffer, offset: number): MultiHeaderView {
  checkFits(payload, offset, MULTI_HEADER_SIZE, 'MultiHeader');
  return {
    type: int32At(payload, offset),
    done: payload[offset + 4] !== 0,
    err: int32At(payload, offset + 5),
  };
}

/** Reads an int at `offset`, checking that it fits. */
export function readIntAt(payload: Buffer, offset: number, what: string): number {
  checkFits(payload, offset, 4, what);
  return int32At(payload, offset);
}
