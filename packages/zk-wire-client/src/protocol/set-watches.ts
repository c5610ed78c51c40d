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
import { Buffer } from 'node:buffer';
import { JuteCodecError, OpCode } from '@zkwire/jute-codec';
import { allocFrame } from '@zkwire/jute-codec/internal';
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

/** The tables of a SetWatches request, in the order of its vectors (SetWatches2 adds the persistent two). */
const SET_WATCHES_TABLES: readonly WatchKind[] = ['data', 'exist', 'child'];

/** Paths shorter than this have a length prefix of four ASCII bytes: three zeros and the length. */
const SHORT_PATH = 128;
/** `PREFIXES[n]`: the jute length prefix of an n-byte string, as the four characters of its bytes. */
const PREFIXES = Array.from({ length: SHORT_PATH }, (_, n) => `\0\0\0${String.fromCharCode(n)}`);

/**
 * One table's strings (each path after its length prefix) as one string of ASCII characters, each standing
 * for one byte; undefined when a path is not a string, not ASCII or not short. A restore writes every
 * watched path of the session once, in code that has not been optimized yet: one string and one C++ copy per
 * table cost a fraction of a Buffer.byteLength and a Buffer#write per path.
 */
function asciiTable(paths: readonly string[]): string | undefined {
  let text = '';
  for (const path of paths) {
    if (typeof path !== 'string' || path.length >= SHORT_PATH) return undefined;
    text += (PREFIXES[path.length] as string) + path;
  }
  // A string's UTF-8 is as long as the string only when every character is ASCII (prefixes included).
  return Buffer.byteLength(text, 'utf8') === text.length ? text : undefined;
}

/** The UTF-8 byte length of each path of a table that is not {@link asciiTable}'s. */
function utf8Lengths(kind: WatchKind, paths: readonly string[]): number[] {
  return paths.map((path) => {
    if (typeof path !== 'string') {
      throw new JuteCodecError('INVALID_VALUE', `SetWatches: ${kind} paths must be strings`);
    }
    return Buffer.byteLength(path, 'utf8');
  });
}

/**
 * Builds the frame of one batch: SetWatches2 only when it holds persistent paths. The bytes are those of
 * encodeRequestFrame with records.SetWatches / SetWatches2 (set-watches-frame.test.ts), written without the
 * generic records, whose per-string sizing and writing were most of a restore's JavaScript.
 *
 *   frame  int length; int xid; int type; long relativeZxid; then per table: int count, count x ustring
 */
export function encodeSetWatches(xid: number, relativeZxid: bigint, batch: WatchBatch): Buffer {
  const persistent = batch.persistent.length > 0 || batch.persistentRecursive.length > 0;
  const tables = persistent ? ORDER : SET_WATCHES_TABLES;
  const texts: (string | undefined)[] = [];
  const lengths: (number[] | undefined)[] = [];
  let size = 12 + 8 + 4 * tables.length;
  for (const kind of tables) {
    const text = asciiTable(batch[kind]);
    const bytes = text === undefined ? utf8Lengths(kind, batch[kind]) : undefined;
    texts.push(text);
    lengths.push(bytes);
    if (text !== undefined) size += text.length;
    else for (const n of bytes as number[]) size += 4 + n;
  }
  const frame = allocFrame(size);
  frame.writeInt32BE(size - 4, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeInt32BE(persistent ? OpCode.setWatches2 : OpCode.setWatches, 8);
  frame.writeBigInt64BE(relativeZxid, 12);
  let offset = 20;
  for (let t = 0; t < tables.length; t++) {
    const paths = batch[tables[t] as WatchKind];
    offset = frame.writeInt32BE(paths.length, offset);
    const text = texts[t];
    if (text !== undefined) {
      offset += frame.write(text, offset, text.length, 'latin1');
      continue;
    }
    const bytes = lengths[t] as number[];
    for (let i = 0; i < paths.length; i++) {
      const n = bytes[i] as number;
      offset = frame.writeInt32BE(n, offset);
      offset += frame.write(paths[i] as string, offset, n, 'utf8');
    }
  }
  return frame;
}

/** Decoder of a SetWatches reply. */
export const setWatchesReply = emptyReply('setWatches');
