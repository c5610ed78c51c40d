/**
 * sync (9).
 *
 *   request  SyncRequest  { ustring path; }
 *   reply    SyncResponse { ustring path; }   (the server path, echoed; not needed)
 *
 * Makes the connected server catch up with the leader before later reads on this session.
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import { emptyReply } from './reply.js';

/** Builds the sync frame. */
export function encodeSync(xid: number, serverPath: string): Buffer {
  return encodeRequestFrame(xid, OpCode.sync, records.SyncRequest, { path: serverPath });
}

/** Decoder of the sync reply. */
export const syncReply = emptyReply('sync');
