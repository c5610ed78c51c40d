/**
 * exists (3).
 *
 *   request  ExistsRequest { ustring path; boolean watch; }
 *   reply    ExistsResponse { Stat stat; }, or err -101 (NONODE) with no body
 *
 * Watch registration (wire-protocol.md §6.3): err 0 → data table; NONODE → exist table (the server set a
 * data watch anyway, which fires NodeCreated); other errors → nothing.
 */
import { fast } from '@zkwire/jute-codec';
import type { Stat } from '../util/types.js';
import { readStat } from './reply.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Builds the exists frame. */
export function encodeExists(xid: number, serverPath: string, watch: boolean): Buffer {
  return fast.encodeExistsRequestFrame(xid, serverPath, watch);
}

/** Stat, or null for a missing node; the watcher is registered as a data or exist watch by the code. */
export const existsReply: ReplyDecoder<Stat | null> = {
  operation: 'exists',
  armsWatch: true,
  registers: 'exists',
  resultCodes: [-101],
  decode(_context, _request, err, payload, offset) {
    return err !== 0 ? null : readStat(payload, offset);
  },
};
