/**
 * getAllChildrenNumber (104, server 3.6.0+).
 *
 *   request  GetAllChildrenNumberRequest  { ustring path; }
 *   reply    GetAllChildrenNumberResponse { int totalNumber; }   (all descendants, not the node itself)
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the getAllChildrenNumber frame. */
export function encodeGetAllChildrenNumber(xid: number, serverPath: string): Buffer {
  return encodeRequestFrame(xid, OpCode.getAllChildrenNumber, records.GetAllChildrenNumberRequest, {
    path: serverPath,
  });
}

/** Decodes the count. */
export const getAllChildrenNumberReply: ReplyDecoder<number> = {
  operation: 'getAllChildrenNumber',
  decode: (_context, _request, _err, payload, offset) =>
    records.GetAllChildrenNumberResponse.decode(payload, offset, payload.length).value.totalNumber,
};
