/**
 * setWatches (101) and setWatches2 (105, server 3.6.0+): re-register watches after a reconnect.
 *
 *   request  SetWatches  { long relativeZxid; vector<ustring> dataWatches; vector<ustring> existWatches;
 *                          vector<ustring> childWatches; }
 *            SetWatches2 { ...SetWatches; vector<ustring> persistentWatches;
 *                          vector<ustring> persistentRecursiveWatches; }
 *   reply    header only
 *
 * Paths are server paths. Batches close once the summed path lengths reach 128 KiB (the check comes before
 * each path is added, as in Java); a batch without persistent paths goes as SetWatches, so a client that
 * never used addWatch still works with 3.5 servers (wire-protocol.md §6.6). The server answers at once with
 * events for what changed since relativeZxid.
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import { emptyReply } from './reply.js';
import type { WatchKind } from './watches.js';

/** The batch limit, in UTF-16 code units of the paths (Java `String.length()`). */
export const SET_WATCHES_MAX_LENGTH = 128 * 1024;

/** One batch: server paths per table. */
export type WatchBatch = Record<WatchKind, string[]>;

const ORDER: readonly WatchKind[] = ['data', 'exist', 'child', 'persistent', 'persistentRecursive'];

function emptyBatch(): WatchBatch {
  return { data: [], exist: [], child: [], persistent: [], persistentRecursive: [] };
}

/** Splits the tables' server paths into batches of at most ~128 KiB of path text. */
export function batchWatches(paths: WatchBatch, limit = SET_WATCHES_MAX_LENGTH): WatchBatch[] {
  const batches: WatchBatch[] = [];
  let batch = emptyBatch();
  let length = 0;
  let count = 0;
  for (const kind of ORDER) {
    for (const path of paths[kind]) {
      if (length >= limit) {
        batches.push(batch);
        batch = emptyBatch();
        length = 0;
        count = 0;
      }
      batch[kind].push(path);
      length += path.length;
      count++;
    }
  }
  if (count > 0) batches.push(batch);
  return batches;
}

/** Builds the frame of one batch: SetWatches2 only when it holds persistent paths. */
export function encodeSetWatches(xid: number, relativeZxid: bigint, batch: WatchBatch): Buffer {
  const base = {
    relativeZxid,
    dataWatches: batch.data,
    existWatches: batch.exist,
    childWatches: batch.child,
  };
  if (batch.persistent.length > 0 || batch.persistentRecursive.length > 0) {
    return encodeRequestFrame(xid, OpCode.setWatches2, records.SetWatches2, {
      ...base,
      persistentWatches: batch.persistent,
      persistentRecursiveWatches: batch.persistentRecursive,
    });
  }
  return encodeRequestFrame(xid, OpCode.setWatches, records.SetWatches, base);
}

/** Decoder of a SetWatches reply. */
export const setWatchesReply = emptyReply('setWatches');
