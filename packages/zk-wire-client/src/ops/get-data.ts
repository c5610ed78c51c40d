/**
 * getData (4).
 *
 *   request  GetDataRequest  { ustring path; boolean watch; }
 *   reply    GetDataResponse { buffer data; Stat stat; }
 *
 * A watch is registered in the data table only on success (a failed getData arms nothing on the server).
 * Null data (-1 length) reads as an empty buffer.
 */
import { fast } from '@zkwire/jute-codec';
import type { ReplyDecoder } from '../pending.js';
import type { Stat, Watcher } from '../types.js';

const EMPTY = Buffer.alloc(0);

/** Builds the getData frame. */
export function encodeGetData(xid: number, serverPath: string, watch: boolean): Buffer {
  return fast.encodeGetDataRequestFrame(xid, serverPath, watch);
}

/** The result of getData. */
export interface GetDataResult {
  data: Buffer;
  stat: Stat;
}

/** Decodes data + Stat and registers the data watcher. */
export const getDataReply: ReplyDecoder<GetDataResult> = {
  operation: 'getData',
  armsWatch: true,
  decode(context, request, _err, payload, offset) {
    const value = fast.decodeGetDataResponse(payload, offset, payload.length);
    const watcher = request.context as Watcher | undefined;
    if (watcher) context.watches.add('data', request.path!, watcher);
    // A copy: the decoded data is a view of the socket's read buffer (up to 64 KiB), which a long-lived
    // value (a cache of many nodes) would otherwise keep alive.
    value.data = value.data === null ? EMPTY : Buffer.from(value.data);
    return value as GetDataResult;
  },
};
