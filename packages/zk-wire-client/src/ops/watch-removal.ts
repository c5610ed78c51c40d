/**
 * checkWatches (17) and removeWatches (18), server 3.5.0+.
 *
 *   request  CheckWatchesRequest / RemoveWatchesRequest { ustring path; int type; }
 *            type: Children 1, Data 2, Any 3 (Persistent 4, PersistentRecursive 5 from 3.9)
 *   reply    header only; -121 NOWATCHER when this connection has no such server watch
 *
 * checkWatches only checks (the server watch stays); removeWatches removes the server watch.
 */
import { encodeRequestFrame, OpCode, records, WatcherType } from '@zkwire/jute-codec';
import type { WatchType } from '../types.js';
import { emptyReply } from './reply.js';

const wireType: Record<WatchType, number> = {
  children: WatcherType.Children,
  data: WatcherType.Data,
  any: WatcherType.Any,
};

/** Builds a checkWatches (remove = false) or removeWatches frame. */
export function encodeWatchRemoval(
  xid: number,
  serverPath: string,
  type: WatchType,
  remove: boolean,
): Buffer {
  return remove
    ? encodeRequestFrame(xid, OpCode.removeWatches, records.RemoveWatchesRequest, {
        path: serverPath,
        type: wireType[type],
      })
    : encodeRequestFrame(xid, OpCode.checkWatches, records.CheckWatchesRequest, {
        path: serverPath,
        type: wireType[type],
      });
}

/** Decoder of checkWatches. */
export const checkWatchesReply = emptyReply('checkWatches');
/** Decoder of removeWatches. */
export const removeWatchesReply = emptyReply('removeWatches');
