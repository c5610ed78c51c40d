/**
 * setACL (7).
 *
 *   request  SetACLRequest  { ustring path; vector<ACL> acl; int version; }   version = aversion, -1 = any
 *   reply    SetACLResponse { Stat stat; }
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { ACL } from '../util/types.js';
import { statReply } from './reply.js';

/** Builds the setACL frame. */
export function encodeSetACL(xid: number, serverPath: string, acl: ACL[], version: number): Buffer {
  return encodeRequestFrame(xid, OpCode.setACL, records.SetACLRequest, { path: serverPath, acl, version });
}

/** Decoder of the setACL reply: the new Stat. */
export const setACLReply = statReply('setACL');
