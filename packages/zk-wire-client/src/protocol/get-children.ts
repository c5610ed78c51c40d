/**
 * getChildren (8) and getChildren2 (12).
 *
 *   request  GetChildrenRequest / GetChildren2Request { ustring path; boolean watch; }
 *   reply    GetChildrenResponse  { vector<ustring> children; }
 *            GetChildren2Response { vector<ustring> children; Stat stat; }   (Stat of the listed node)
 *
 * The watch is armed by the same request as the read, so no change can slip between them; it is registered
 * in the child table only on success. Children are names, in no particular order.
 */
import { encodeRequestFrame, fast, OpCode, records } from '@zkwire/jute-codec';
import type { Stat } from '../util/types.js';
import { namesOf, sharedChildNames } from './children-memo.js';
import type { ReplyDecoder } from './pending.js';

/** Builds the getChildren (withStat false) or getChildren2 frame. */
export function encodeGetChildren(
  xid: number,
  serverPath: string,
  watch: boolean,
  withStat: boolean,
): Buffer {
  return withStat
    ? encodeRequestFrame(xid, OpCode.getChildren2, records.GetChildren2Request, { path: serverPath, watch })
    : fast.encodeGetChildrenRequestFrame(xid, serverPath, watch);
}

/** Decodes the names; the child watcher is registered as the reply settles. */
export const getChildrenReply: ReplyDecoder<string[]> = {
  operation: 'getChildren',
  armsWatch: true,
  registers: 'child',
  decode(_context, request, _err, payload, offset) {
    return sharedChildNames.childNames(request.path, payload, offset);
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
  decode(_context, _request, _err, payload, offset) {
    const { value } = records.GetChildren2Response.decode(payload, offset, payload.length);
    return { children: namesOf(value.children), stat: value.stat };
  },
};
