/**
 * addWatch (106, server 3.6.0+).
 *
 *   request  AddWatchRequest { ustring path; int mode; }   mode 0 = PERSISTENT, 1 = PERSISTENT_RECURSIVE
 *   reply    ErrorResponse { int err; }  (always 0)
 *
 * The server checks neither existence nor ACL. Like Java, the local watcher is registered on err 0 or
 * NONODE. A persistent watch gets data and child events of the node; a recursive one gets created, deleted
 * and dataChanged of the node and every descendant, never childrenChanged.
 */
import { AddWatchMode, encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { AddWatchModeName, ReplyDecoder } from './reply-decoder.js';

/** Builds the addWatch frame. */
export function encodeAddWatch(xid: number, serverPath: string, mode: AddWatchModeName): Buffer {
  const wireMode = mode === 'persistent' ? AddWatchMode.PERSISTENT : AddWatchMode.PERSISTENT_RECURSIVE;
  return encodeRequestFrame(xid, OpCode.addWatch, records.AddWatchRequest, {
    path: serverPath,
    mode: wireMode,
  });
}

/** Nothing to decode; the watcher enters the persistent or recursive table as the reply settles. */
export const addWatchReply: ReplyDecoder<void> = {
  operation: 'addWatch',
  armsWatch: true,
  registers: 'persistent',
  resultCodes: [-101],
  decode: () => undefined,
};
