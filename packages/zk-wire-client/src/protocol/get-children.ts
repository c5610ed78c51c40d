/**
 * getChildren and getChildren2, both sent as getChildren2 (12).
 *
 *   request  GetChildren2Request  { ustring path; boolean watch; }
 *   reply    GetChildren2Response { vector<ustring> children; Stat stat; }   (Stat of the listed node)
 *
 * Why getChildren (names only) asks for getChildren2 and drops the Stat: ZooKeeper 3.6 and later keep the
 * serialized answers of getChildren2 in a response cache (checked against the node's Stat, so never stale)
 * and serialize a cached list only once; they have no such cache for getChildren (8). Listing a large node
 * again and again, as locks, queues and caches do, costs the server far less this way. The request is the
 * same bytes but the opcode, every server since 3.3 answers it, and the watch it arms is the same child watch.
 *
 * The watch is armed by the same request as the read, so no change can slip between them; it is registered
 * in the child table only on success. Children are names, in no particular order.
 */
import { fast } from '@zkwire/jute-codec';
import { STAT_SIZE } from '@zkwire/jute-codec/internal';
import type { Stat } from '../util/types.js';
import { sharedChildNames } from './children-memo.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the getChildren2 frame, for getChildren and getChildren2 alike (see above). */
export function encodeGetChildren(xid: number, serverPath: string, watch: boolean): Buffer {
  return fast.encodeGetChildren2RequestFrame(xid, serverPath, watch);
}

/** Decodes the names, before the Stat at the end; the child watcher is registered as the reply settles. */
export const getChildrenReply: ReplyDecoder<string[]> = {
  operation: 'getChildren',
  armsWatch: true,
  registers: 'child',
  decode(_context, request, _err, payload, offset) {
    return sharedChildNames.childNames(request.path, payload, offset, statOffset(payload, offset));
  },
};

/** The result of getChildren2. */
export interface GetChildren2Result {
  children: string[];
  stat: Stat;
}

/** Decodes the names and the Stat; the child watcher is registered as the reply settles. */
export const getChildren2Reply: ReplyDecoder<GetChildren2Result> = {
  operation: 'getChildren2',
  armsWatch: true,
  registers: 'child',
  decode(_context, request, _err, payload, offset) {
    const end = statOffset(payload, offset);
    return {
      children: sharedChildNames.childNames(request.path, payload, offset, end),
      stat: fast.decodeStat(payload, end, payload.length),
    };
  },
};

/**
 * Where the Stat starts: the reply's last STAT_SIZE bytes. A reply too short to hold it is left to the
 * decoders, whose bounds checks then fail it as a malformed reply.
 */
function statOffset(payload: Buffer, offset: number): number {
  return Math.max(offset, payload.length - STAT_SIZE);
}
