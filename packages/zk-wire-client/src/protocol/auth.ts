/**
 * auth (100), always with xid -4.
 *
 *   request  AuthPacket { int type; ustring scheme; buffer auth; }   type is always 0
 *   reply    header only, xid -4; err -115 (AUTHFAILED) and the server closes the connection
 *
 * The server handles it as soon as it reads it, outside the request pipeline, so its reply can overtake
 * replies to earlier requests: auth replies are matched by xid -4, in their own FIFO, never the main one.
 */
import { encodeRequestFrame, OpCode, records, Xid } from '@zkwire/jute-codec';

/** Builds the auth frame. */
export function encodeAuth(scheme: string, auth: Uint8Array): Buffer {
  return encodeRequestFrame(Xid.AUTH, OpCode.auth, records.AuthPacket, { type: 0, scheme, auth });
}
