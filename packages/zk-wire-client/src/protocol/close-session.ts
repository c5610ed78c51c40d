/**
 * closeSession (-11).
 *
 *   request  header only, normal xid
 *   reply    header only; the server then closes the socket and deletes the session's ephemerals
 */
import { encodeRequestFrame, OpCode } from '@zkwire/jute-codec';
import { emptyReply } from './reply.js';

/** Builds the closeSession frame. */
export function encodeCloseSession(xid: number): Buffer {
  return encodeRequestFrame(xid, OpCode.closeSession);
}

/** Decoder of the closeSession reply. */
export const closeSessionReply = emptyReply('closeSession');
