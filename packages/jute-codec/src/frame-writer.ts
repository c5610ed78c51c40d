// Client frames: a 4-byte length, the RequestHeader {xid, type}, then the request record, in one Buffer.
import { Buffer } from 'node:buffer';
import { JuteCodecError } from './errors';
import { allocFrame } from './fast/frame-alloc';
import type { JuteRecord } from './layouts';
import { type ConnectRequest, ConnectRequestLayout } from './records/session';

/** Frame length prefix + RequestHeader. */
export const REQUEST_PREFIX_SIZE = 12;

/**
 * Builds one request frame: length prefix, RequestHeader {xid, opCode}, then `value` encoded as `record`
 * (omit both for header-only requests such as ping, closeSession and whoAmI). One allocation.
 */
export function encodeRequestFrame<T>(
  xid: number,
  opCode: number,
  record?: JuteRecord<T>,
  value?: T,
): Buffer {
  checkInt32('xid', xid);
  checkInt32('opCode', opCode);
  if (record !== undefined && value === undefined) {
    throw new JuteCodecError('INVALID_VALUE', `${record.name}: a value is required`);
  }
  const bodySize = record === undefined ? 0 : record.size(value as T);
  const frame = allocFrame(REQUEST_PREFIX_SIZE + bodySize);
  frame.writeInt32BE(8 + bodySize, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeInt32BE(opCode, 8);
  if (record !== undefined) {
    const written = record.encode(value as T, frame, REQUEST_PREFIX_SIZE);
    if (written !== bodySize) {
      throw new JuteCodecError('INVALID_VALUE', `${record.name}: wrote ${written} of ${bodySize} bytes`);
    }
  }
  return frame;
}

/**
 * Builds the whole first frame of a connection: length prefix, ConnectRequest, then the readOnly byte
 * (wire-protocol.md §2.3: always send it; every 3.5+ server then appends its own to the response).
 */
export function encodeConnectRequest(request: ConnectRequest & { readOnly: boolean }): Buffer {
  if (typeof request?.readOnly !== 'boolean') {
    throw new JuteCodecError('INVALID_VALUE', 'ConnectRequest.readOnly must be a boolean');
  }
  const usual = connectRequestAtFixedOffsets(request);
  if (usual !== undefined) return usual;
  const size = ConnectRequestLayout.size(request);
  const frame = Buffer.allocUnsafe(4 + size + 1);
  frame.writeInt32BE(size + 1, 0);
  ConnectRequestLayout.write(request, frame, 4);
  frame[4 + size] = request.readOnly ? 1 : 0;
  return frame;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A well-formed ConnectRequest (every field of its type and in range, a password of bytes) written at fixed
 * offsets: byte for byte what the layout writes, without its generic walk over the fields, a cost every
 * session pays cold (it runs once per connection, never warm). Anything else returns undefined and goes
 * through the layout, whose errors say what is wrong.
 */
function connectRequestAtFixedOffsets(request: ConnectRequest & { readOnly: boolean }): Buffer | undefined {
  const { protocolVersion, lastZxidSeen, timeOut, sessionId, passwd } = request;
  if (!isInt32(protocolVersion) || !isInt32(timeOut) || !isInt64(lastZxidSeen) || !isInt64(sessionId))
    return undefined;
  if (!(passwd instanceof Uint8Array)) return undefined;
  // protocolVersion, lastZxidSeen, timeOut, sessionId, passwd length, passwd, then the readOnly byte.
  const frame = Buffer.allocUnsafe(4 + 28 + passwd.length + 1);
  frame.writeInt32BE(frame.length - 4, 0);
  frame.writeInt32BE(protocolVersion, 4);
  frame.writeBigInt64BE(lastZxidSeen, 8);
  frame.writeInt32BE(timeOut, 16);
  frame.writeBigInt64BE(sessionId, 20);
  frame.writeInt32BE(passwd.length, 28);
  frame.set(passwd, 32);
  frame[32 + passwd.length] = request.readOnly ? 1 : 0;
  return frame;
}

function isInt32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= -2147483648 && (value as number) <= 2147483647;
}

function isInt64(value: unknown): value is bigint {
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/** Throws INVALID_VALUE unless `value` is a 32-bit signed integer. */
export function checkInt32(name: string, value: number): void {
  if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
    throw new JuteCodecError('INVALID_VALUE', `${name} must be a 32-bit integer, got ${String(value)}`);
  }
}
