// Client frames: a 4-byte length, the RequestHeader {xid, type}, then the request record, in one Buffer.
import { JuteCodecError } from './errors';
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
  const frame = Buffer.allocUnsafe(REQUEST_PREFIX_SIZE + bodySize);
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
  const size = ConnectRequestLayout.size(request);
  const frame = Buffer.allocUnsafe(4 + size + 1);
  frame.writeInt32BE(size + 1, 0);
  ConnectRequestLayout.write(request, frame, 4);
  frame[4 + size] = request.readOnly ? 1 : 0;
  return frame;
}

/** Throws INVALID_VALUE unless `value` is a 32-bit signed integer. */
export function checkInt32(name: string, value: number): void {
  if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
    throw new JuteCodecError('INVALID_VALUE', `${name} must be a 32-bit integer, got ${String(value)}`);
  }
}
