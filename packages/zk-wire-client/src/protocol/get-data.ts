/**
 * getData (4).
 *
 *   request  GetDataRequest  { ustring path; boolean watch; }
 *   reply    GetDataResponse { buffer data; Stat stat; }
 *
 * A watch is registered in the data table only on success (a failed getData arms nothing on the server).
 * Null data (-1 length) reads as an empty buffer.
 */
import { Buffer } from 'node:buffer';
import { fast } from '@zkwire/jute-codec';
import type { Stat } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';

const EMPTY = Buffer.alloc(0);

/**
 * The caller's own copy of a reply's data (null reads as empty). Decoded data is a view of the socket's read
 * buffer, which the next read overwrites (transport/connection.ts); every result that hands data out goes
 * through this. Empty data shares one empty buffer, as null does: it has no bytes to overwrite, and a copy of
 * nothing still made a Buffer and an ArrayBuffer per reply (parents, markers: nodes created with no data are
 * common).
 */
export function ownedData(data: Uint8Array | null): Buffer {
  return data === null || data.length === 0 ? EMPTY : Buffer.from(data);
}

/** Builds the getData frame. */
export function encodeGetData(xid: number, serverPath: string, watch: boolean): Buffer {
  return fast.encodeGetDataRequestFrame(xid, serverPath, watch);
}

/** The result of getData. */
export interface GetDataResult {
  data: Buffer;
  stat: Stat;
}

/** Decodes data + Stat; the data watcher is registered as the reply settles. */
export const getDataReply: ReplyDecoder<GetDataResult> = {
  operation: 'getData',
  armsWatch: true,
  registers: 'data',
  decode(_context, _request, _err, payload, offset) {
    const value = fast.decodeGetDataResponse(payload, offset, payload.length);
    value.data = ownedData(value.data);
    return value as GetDataResult;
  },
};
