// Fast request frames for the hot operations: sizes computed directly, one allocation, fixed-offset writes.
// Byte-for-byte equal to encodeRequestFrame with the generic records (encoders.test.ts).
import type { Buffer } from 'node:buffer';
import { OpCode } from '../constants';
import { JuteCodecError } from '../errors';
import { checkInt32 } from '../frame-writer';
import type { ACL } from '../records/data';
import { allocFrame } from './frame-alloc';
import { copyBytes, putInt32, putString, utf8Length } from './write';

function checkPath(path: string): number {
  if (typeof path !== 'string') throw new JuteCodecError('INVALID_VALUE', 'path must be a string');
  return utf8Length(path);
}

function checkBool(name: string, value: boolean): void {
  if (typeof value !== 'boolean') throw new JuteCodecError('INVALID_VALUE', `${name} must be a boolean`);
}

function checkData(data: Uint8Array | null): number {
  if (data === null) return 0;
  if (!(data instanceof Uint8Array))
    throw new JuteCodecError('INVALID_VALUE', 'data must be a Uint8Array or null');
  return data.length;
}

// Writes the length prefix and RequestHeader; returns the offset of the body.
function header(frame: Buffer, xid: number, opCode: number): number {
  putInt32(frame, frame.length - 4, 0);
  putInt32(frame, xid, 4);
  putInt32(frame, opCode, 8);
  return 12;
}

function writeData(frame: Buffer, data: Uint8Array | null, offset: number): number {
  if (data === null) return putInt32(frame, -1, offset);
  putInt32(frame, data.length, offset);
  copyBytes.call(frame, data, offset + 4);
  return offset + 4 + data.length;
}

function pathWatchFrame(opCode: number, xid: number, path: string, watch: boolean): Buffer {
  checkInt32('xid', xid);
  const n = checkPath(path);
  checkBool('watch', watch);
  const frame = allocFrame(12 + 4 + n + 1);
  const offset = putString(frame, path, n, header(frame, xid, opCode));
  frame[offset] = watch ? 1 : 0;
  return frame;
}

/** The getData (4) frame: RequestHeader + GetDataRequest {path, watch}. */
export function encodeGetDataRequestFrame(xid: number, path: string, watch: boolean): Buffer {
  return pathWatchFrame(OpCode.getData, xid, path, watch);
}

/** The exists (3) frame: RequestHeader + ExistsRequest {path, watch}. */
export function encodeExistsRequestFrame(xid: number, path: string, watch: boolean): Buffer {
  return pathWatchFrame(OpCode.exists, xid, path, watch);
}

/** The getChildren (8) frame: RequestHeader + GetChildrenRequest {path, watch}. */
export function encodeGetChildrenRequestFrame(xid: number, path: string, watch: boolean): Buffer {
  return pathWatchFrame(OpCode.getChildren, xid, path, watch);
}

/** The getChildren2 (12) frame: RequestHeader + GetChildren2Request {path, watch}. */
export function encodeGetChildren2RequestFrame(xid: number, path: string, watch: boolean): Buffer {
  return pathWatchFrame(OpCode.getChildren2, xid, path, watch);
}

/** The setData (5) frame: RequestHeader + SetDataRequest {path, data, version}. */
export function encodeSetDataRequestFrame(
  xid: number,
  path: string,
  data: Uint8Array | null,
  version: number,
): Buffer {
  checkInt32('xid', xid);
  const n = checkPath(path);
  const d = checkData(data);
  checkInt32('version', version);
  const frame = allocFrame(12 + 4 + n + 4 + d + 4);
  let offset = putString(frame, path, n, header(frame, xid, OpCode.setData));
  offset = writeData(frame, data, offset);
  putInt32(frame, version, offset);
  return frame;
}

/** The delete (2) frame: RequestHeader + DeleteRequest {path, version}. */
export function encodeDeleteRequestFrame(xid: number, path: string, version: number): Buffer {
  checkInt32('xid', xid);
  const n = checkPath(path);
  checkInt32('version', version);
  const frame = allocFrame(12 + 4 + n + 4);
  putInt32(frame, version, putString(frame, path, n, header(frame, xid, OpCode.delete)));
  return frame;
}

/**
 * A CreateRequest frame {path, data, acl, flags} under `opCode` (create 1, create2 15, createContainer 19;
 * createTTL has its own record).
 */
export function encodeCreateRequestFrame(
  xid: number,
  opCode: number,
  path: string,
  data: Uint8Array | null,
  acl: readonly ACL[],
  flags: number,
): Buffer {
  checkInt32('xid', xid);
  checkInt32('opCode', opCode);
  const n = checkPath(path);
  const d = checkData(data);
  checkInt32('flags', flags);
  if (!Array.isArray(acl)) throw new JuteCodecError('INVALID_VALUE', 'acl must be an array');
  // Two passes over the ACL (size, then write) keep the frame a single allocation.
  const lengths: number[] = [];
  let aclSize = 4;
  for (const entry of acl) {
    checkInt32('acl perms', entry?.perms);
    const scheme = entry.id?.scheme;
    const id = entry.id?.id;
    if (typeof scheme !== 'string' || typeof id !== 'string') {
      throw new JuteCodecError('INVALID_VALUE', 'acl id scheme and id must be strings');
    }
    const s = utf8Length(scheme);
    const i = utf8Length(id);
    lengths.push(s, i);
    aclSize += 12 + s + i;
  }
  const frame = allocFrame(12 + 4 + n + 4 + d + aclSize + 4);
  let offset = putString(frame, path, n, header(frame, xid, opCode));
  offset = writeData(frame, data, offset);
  offset = putInt32(frame, acl.length, offset);
  for (let k = 0; k < acl.length; k++) {
    const entry = acl[k]!;
    offset = putInt32(frame, entry.perms, offset);
    offset = putString(frame, entry.id.scheme as string, lengths[2 * k]!, offset);
    offset = putString(frame, entry.id.id as string, lengths[2 * k + 1]!, offset);
  }
  putInt32(frame, flags, offset);
  return frame;
}
