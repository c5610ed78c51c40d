/**
 * getEphemerals (103, server 3.6.0+).
 *
 *   request  GetEphemeralsRequest  { ustring prefixPath; }     a plain string prefix; "/" = all
 *   reply    GetEphemeralsResponse { vector<ustring> ephemerals; }   this session's ephemerals, server paths
 *
 * Unlike the Java client, the prefix is a client path: the chroot is added to it, and stripped from the
 * results (only ephemerals under the chroot are returned).
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the getEphemerals frame. */
export function encodeGetEphemerals(xid: number, serverPrefix: string): Buffer {
  return encodeRequestFrame(xid, OpCode.getEphemerals, records.GetEphemeralsRequest, {
    prefixPath: serverPrefix,
  });
}

/** Decodes the paths, as client paths. */
export const getEphemeralsReply: ReplyDecoder<string[]> = {
  operation: 'getEphemerals',
  decode(context, _request, _err, payload, offset) {
    const { value } = records.GetEphemeralsResponse.decode(payload, offset, payload.length);
    const prefix = context.chroot.prefix;
    const out: string[] = [];
    for (const path of value.ephemerals ?? []) {
      if (path === null) continue;
      if (prefix === '' || path === prefix || path.startsWith(`${prefix}/`))
        out.push(context.chroot.toClient(path));
    }
    return out;
  },
};
