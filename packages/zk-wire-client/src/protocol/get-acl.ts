/**
 * getACL (6).
 *
 *   request  GetACLRequest  { ustring path; }
 *   reply    GetACLResponse { vector<ACL> acl; Stat stat; }
 *
 * Without ADMIN on the node, the server masks digest ids to `user:x`.
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { ACL, Stat } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the getACL frame. */
export function encodeGetACL(xid: number, serverPath: string): Buffer {
  return encodeRequestFrame(xid, OpCode.getACL, records.GetACLRequest, { path: serverPath });
}

/** The result of getACL. */
export interface GetACLResult {
  acl: ACL[];
  stat: Stat;
}

/** Decodes the ACL list and the Stat. */
export const getACLReply: ReplyDecoder<GetACLResult> = {
  operation: 'getACL',
  decode(_context, _request, _err, payload, offset) {
    const { value } = records.GetACLResponse.decode(payload, offset, payload.length);
    return {
      acl: (value.acl ?? []).map((a) => ({
        perms: a.perms,
        id: { scheme: a.id.scheme ?? '', id: a.id.id ?? '' },
      })),
      stat: value.stat,
    };
  },
};
