/**
 * sasl (102).
 *
 *   request  GetSASLRequest  { buffer token; }   normal xid, outside the pending FIFO
 *   reply    SetSASLResponse { buffer token; }   answered out of band; err -115 on failure
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';

/** Builds a SASL frame. */
export function encodeSasl(xid: number, token: Uint8Array | null): Buffer {
  return encodeRequestFrame(xid, OpCode.sasl, records.GetSASLRequest, { token });
}

/** Reads the server's token. */
export function decodeSaslReply(payload: Buffer, offset: number): Uint8Array | null {
  return records.SetSASLResponse.decode(payload, offset, payload.length).value.token;
}
