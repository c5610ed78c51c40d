// Frame builders for tests: server reply frames made with the generic records.
import { encode } from '../codec';
import type { JuteRecord } from '../layouts';
import { records } from '../records';

/** A length-prefixed frame around `payload`. */
export function frame(payload: Buffer): Buffer {
  const out = Buffer.alloc(4 + payload.length);
  out.writeInt32BE(payload.length, 0);
  payload.copy(out, 4);
  return out;
}

/** A server reply payload: ReplyHeader, then `body` encoded as `record` when given. */
export function replyPayload<T>(
  header: { xid: number; zxid: bigint; err: number },
  record?: JuteRecord<T>,
  body?: T,
): Buffer {
  const head = encode(records.ReplyHeader, header);
  return record === undefined ? head : Buffer.concat([head, encode(record, body as T)]);
}

/** A 4-byte length prefix alone (for negative or oversize lengths). */
export function lengthPrefix(length: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeInt32BE(length, 0);
  return out;
}
