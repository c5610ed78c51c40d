/**
 * Hand-encoded request frames for the raw limit (wire-protocol.md §1, §2.1, §4.2). The raw contender must not
 * depend on any client or codec under test, so it writes jute by hand: a frame is built once, before the
 * clock starts, and then only copied to the socket.
 */

const OPEN_ACL = { perms: 31, scheme: 'world', id: 'anyone' } as const;

/** Op codes used by the raw contender (wire-protocol.md §4.1). */
export const RawOpCode = {
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getChildren: 8,
  multi: 14,
  closeSession: -11,
} as const;

/** A growable big-endian writer for jute primitives; frames are small, so simplicity wins over speed. */
class JuteWriter {
  private readonly parts: Buffer[] = [];

  int(value: number): this {
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(value);
    this.parts.push(b);
    return this;
  }

  long(value: bigint): this {
    const b = Buffer.allocUnsafe(8);
    b.writeBigInt64BE(value);
    this.parts.push(b);
    return this;
  }

  bool(value: boolean): this {
    this.parts.push(Buffer.from([value ? 1 : 0]));
    return this;
  }

  /** jute `buffer` and `ustring` share one layout: int length (-1 = null) then the bytes */
  bytes(value: Buffer | string | null): this {
    if (value === null) return this.int(-1);
    const b = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    this.int(b.length);
    this.parts.push(b);
    return this;
  }

  openAcl(): this {
    return this.int(1).int(OPEN_ACL.perms).bytes(OPEN_ACL.scheme).bytes(OPEN_ACL.id);
  }

  /** the payload with its 4-byte length prefix */
  frame(): Buffer {
    const body = Buffer.concat(this.parts);
    const out = Buffer.allocUnsafe(4 + body.length);
    out.writeInt32BE(body.length, 0);
    body.copy(out, 4);
    return out;
  }
}

/** ConnectRequest for a new session, with the trailing readOnly byte (§2.1): 49 bytes. */
export function connectFrame(sessionTimeoutMs = 30_000): Buffer {
  return new JuteWriter()
    .int(0)
    .long(0n)
    .int(sessionTimeoutMs)
    .long(0n)
    .bytes(Buffer.alloc(16))
    .bool(false)
    .frame();
}

function header(xid: number, opCode: number): JuteWriter {
  return new JuteWriter().int(xid).int(opCode);
}

/** getData / exists / getChildren share the request layout `ustring path, boolean watch`. */
export function pathWatchFrame(
  xid: number,
  opCode: typeof RawOpCode.getData | typeof RawOpCode.exists | typeof RawOpCode.getChildren,
  path: string,
  watch = false,
): Buffer {
  return header(xid, opCode).bytes(path).bool(watch).frame();
}

/** SetDataRequest with version -1 (any). */
export function setDataFrame(xid: number, path: string, data: Buffer): Buffer {
  return header(xid, RawOpCode.setData).bytes(path).bytes(data).int(-1).frame();
}

/** CreateRequest, persistent, open ACL. */
export function createFrame(xid: number, path: string, data: Buffer): Buffer {
  return header(xid, RawOpCode.create).bytes(path).bytes(data).openAcl().int(0).frame();
}

/** DeleteRequest with version -1 (any). */
export function deleteFrame(xid: number, path: string): Buffer {
  return header(xid, RawOpCode.delete).bytes(path).int(-1).frame();
}

/** closeSession: header only (§4.1). */
export function closeSessionFrame(xid: number): Buffer {
  return header(xid, RawOpCode.closeSession).frame();
}

/** A multi of setData ops (§4.5): a MultiHeader before each op, then the terminator {-1, true, -1}. */
export function multiSetDataFrame(xid: number, paths: readonly string[], data: Buffer): Buffer {
  const w = header(xid, RawOpCode.multi);
  for (const path of paths) {
    w.int(RawOpCode.setData).bool(false).int(-1);
    w.bytes(path).bytes(data).int(-1);
  }
  return w.int(-1).bool(true).int(-1).frame();
}
