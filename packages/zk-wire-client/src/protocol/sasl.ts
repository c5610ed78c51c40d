/**
 * sasl (102).
 *
 *   request  GetSASLRequest  { buffer token; }   normal xid, outside the pending FIFO
 *   reply    SetSASLResponse { buffer token; }   answered out of band; err -115 on failure
 */
import { Buffer } from 'node:buffer';
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';

/** Builds a SASL frame. */
export function encodeSasl(xid: number, token: Uint8Array | null): Buffer {
  return encodeRequestFrame(xid, OpCode.sasl, records.GetSASLRequest, { token });
}

/**
 * Reads the server's token, as a copy: the payload is a view of the socket's read buffer, which the next read
 * overwrites, and the mechanism answers the token after the read is done.
 */
export function decodeSaslReply(payload: Buffer, offset: number): Uint8Array | null {
  const token = records.SetSASLResponse.decode(payload, offset, payload.length).value.token;
  return token === null ? null : Buffer.from(token);
}
