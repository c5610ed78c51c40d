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
import type { Stat, Watcher } from '../util/types.js';
import type { ReplyDecoder } from './pending.js';
import { readStat } from './reply.js';

/** Builds the exists frame. */
export function encodeExists(xid: number, serverPath: string, watch: boolean): Buffer {
  return fast.encodeExistsRequestFrame(xid, serverPath, watch);
}

/** Stat, or null for a missing node; registers the watcher (request context) by the reply's code. */
export const existsReply: ReplyDecoder<Stat | null> = {
  operation: 'exists',
  armsWatch: true,
  resultCodes: [-101],
  decode(context, request, err, payload, offset) {
    const watcher = request.context as Watcher | undefined;
    if (err !== 0) {
      if (watcher) context.watches.add('exist', request.path!, watcher);
      return null;
    }
    const stat = readStat(payload, offset);
    if (watcher) context.watches.add('data', request.path!, watcher);
    return stat;
  },
};
