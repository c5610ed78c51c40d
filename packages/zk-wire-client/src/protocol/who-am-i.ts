/**
 * whoAmI (107, server 3.7.0+).
 *
 *   request  header only
 *   reply    WhoAmIResponse { vector<ClientInfo> clientInfo; }   ClientInfo { ustring authScheme; ustring
 * user; }
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { ClientInfo } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the whoAmI frame. */
export function encodeWhoAmI(xid: number): Buffer {
  return encodeRequestFrame(xid, OpCode.whoAmI);
}

/** Decodes the identities of this connection. */
export const whoAmIReply: ReplyDecoder<ClientInfo[]> = {
  operation: 'whoAmI',
  decode(_context, _request, _err, payload, offset) {
    const { value } = records.WhoAmIResponse.decode(payload, offset, payload.length);
    return (value.clientInfo ?? []).map((c) => ({ authScheme: c.authScheme ?? '', user: c.user ?? '' }));
  },
};
