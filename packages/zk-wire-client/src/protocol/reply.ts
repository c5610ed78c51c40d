/**
 * Shared pieces of the reply decoders: Stat decoding and decoders for replies that carry only a Stat or
 * nothing. Bodies are read only when err = 0 (wire-protocol.md §3.1: whatever follows an error header is
 * ignored).
 */
import { fast } from '@zkwire/jute-codec';
import type { Stat } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Decodes the Stat at `offset`. */
export function readStat(payload: Buffer, offset: number): Stat {
  return fast.decodeStat(payload, offset, payload.length);
}

/** The ReplyHeader size; bodies start here. */
export const BODY_OFFSET = 16;

/** Decoder of replies whose body is one Stat (setData, setACL). */
export function statReply(operation: string): ReplyDecoder<Stat> {
  return {
    operation,
    decode: (_context, _request, _err, payload, offset) => readStat(payload, offset),
  };
}

/** Decoder of header-only replies (delete, removeWatches, checkWatches, closeSession, ...). */
export function emptyReply(operation: string): ReplyDecoder<void> {
  return {
    operation,
    decode: () => undefined,
  };
}
