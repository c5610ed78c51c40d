/**
 * setData (5).
 *
 *   request  SetDataRequest  { ustring path; buffer data; int version; }    version -1 = any
 *   reply    SetDataResponse { Stat stat; }
 */
import { fast } from '@zkwire/jute-codec';
import { statReply } from './reply.js';

/** Builds the setData frame. */
export function encodeSetData(
  xid: number,
  serverPath: string,
  data: Uint8Array | null,
  version: number,
): Buffer {
  return fast.encodeSetDataRequestFrame(xid, serverPath, data, version);
}

/** Decoder of the setData reply: the new Stat. */
export const setDataReply = statReply('setData');
