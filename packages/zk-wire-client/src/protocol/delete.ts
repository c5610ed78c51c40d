/**
 * delete (2).
 *
 *   request  DeleteRequest { ustring path; int version; }    version -1 = any
 *   reply    header only (NONODE, BADVERSION, NOTEMPTY, NOAUTH on the parent)
 */
import { fast } from '@zkwire/jute-codec';
import { emptyReply } from './reply.js';

/** Builds the delete frame. */
export function encodeDelete(xid: number, serverPath: string, version: number): Buffer {
  return fast.encodeDeleteRequestFrame(xid, serverPath, version);
}

/** Decoder of the delete reply. */
export const deleteReply = emptyReply('delete');
