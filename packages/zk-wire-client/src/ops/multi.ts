/**
 * multi (14) and multiRead (22, server 3.6.0+).
 *
 *   request  MultiOperationRecord: for each op  MultiHeader { int type; boolean done=false; int err=-1; }
 *                                               + the op's request record,
 *            then MultiHeader { type=-1; done=true; err=-1 }
 *   reply    MultiResponse: for each op  MultiHeader { int type; boolean done=false; int err; } + body:
 *              1 CreateResponse | 15 Create2Response | 2, 13 nothing | 5 SetDataResponse (Stat)
 *              | 4 GetDataResponse | 8 GetChildrenResponse | -1 ErrorResponse { int err; }
 *            then MultiHeader { -1, true, -1 }
 *
 * multi is atomic: when one op fails every result is an error (0 before the failing op, its code, then -2
 * after it) and the reply header's err is 0 (wire-protocol.md §4.5). multiRead is not atomic: each op has its
 * own result. Create results lose the chroot (the Java client forgets this).
 */
import { OpCode, records } from '@zkwire/jute-codec';
import { errorFromCode, MultiError, ProtocolError, type ZooKeeperError } from '../errors.js';
import type { ReplyDecoder } from '../pending.js';
import type { OpResult, ReadOutcome } from '../types.js';
import { type CreateArgs, createFlags, createOpCode } from './create.js';
import { readStat } from './reply.js';

/** A checked write op of a multi. */
export type MultiOpArgs =
  | { type: 'create'; path: string; create: CreateArgs }
  | { type: 'delete'; path: string; serverPath: string; version: number }
  | { type: 'setData'; path: string; serverPath: string; data: Uint8Array | null; version: number }
  | { type: 'check'; path: string; serverPath: string; version: number };

/** A checked read op of a multiRead. */
export interface ReadOpArgs {
  type: 'getData' | 'getChildren';
  path: string;
  serverPath: string;
}

const HEADER = records.MultiHeader;
const MULTI_HEADER_SIZE = 9;

type Part = { opCode: number; write(target: Buffer, offset: number): number; size: number };

function part<T>(
  opCode: number,
  record: { size(v: T): number; encode(v: T, b: Buffer, o: number): number },
  value: T,
): Part {
  return {
    opCode,
    size: record.size(value),
    write: (target, offset) => record.encode(value, target, offset),
  };
}

function writeOp(args: MultiOpArgs): Part {
  switch (args.type) {
    case 'create': {
      const c = args.create;
      // create2 for plain modes too, so that each create result carries its Stat.
      const opCode = createOpCode(c.mode, true);
      const base = { path: c.serverPath, data: c.data, acl: c.acl, flags: createFlags[c.mode] };
      if (opCode === OpCode.createTTL) return part(opCode, records.CreateTTLRequest, { ...base, ttl: c.ttl });
      return part(opCode, records.CreateRequest, base);
    }
    case 'delete':
      return part(OpCode.delete, records.DeleteRequest, { path: args.serverPath, version: args.version });
    case 'setData':
      return part(OpCode.setData, records.SetDataRequest, {
        path: args.serverPath,
        data: args.data,
        version: args.version,
      });
    case 'check':
      return part(OpCode.check, records.CheckVersionRequest, {
        path: args.serverPath,
        version: args.version,
      });
  }
}

function encodeParts(xid: number, opCode: number, parts: Part[]): Buffer {
  let body = MULTI_HEADER_SIZE;
  for (const p of parts) body += MULTI_HEADER_SIZE + p.size;
  const frame = Buffer.allocUnsafe(12 + body);
  frame.writeInt32BE(8 + body, 0);
  frame.writeInt32BE(xid, 4);
  frame.writeInt32BE(opCode, 8);
  let offset = 12;
  for (const p of parts) {
    offset += HEADER.encode({ type: p.opCode, done: false, err: -1 }, frame, offset);
    offset += p.write(frame, offset);
  }
  offset += HEADER.encode({ type: -1, done: true, err: -1 }, frame, offset);
  if (offset !== frame.length)
    throw new ProtocolError(`multi frame size mismatch: ${offset} != ${frame.length}`);
  return frame;
}

/** Builds the multi frame. */
export function encodeMulti(xid: number, ops: MultiOpArgs[]): Buffer {
  return encodeParts(xid, OpCode.multi, ops.map(writeOp));
}

/** Builds the multiRead frame (watch = false in each sub-request, as Java sends). */
export function encodeMultiRead(xid: number, ops: ReadOpArgs[]): Buffer {
  return encodeParts(
    xid,
    OpCode.multiRead,
    ops.map((op) =>
      op.type === 'getData'
        ? part(OpCode.getData, records.GetDataRequest, { path: op.serverPath, watch: false })
        : part(OpCode.getChildren, records.GetChildrenRequest, { path: op.serverPath, watch: false }),
    ),
  );
}

/** Reads each result header + body; calls `each` with (type, err, offset of the body) and gets the next offset. */
function readResults(
  payload: Buffer,
  offset: number,
  each: (type: number, err: number, at: number, index: number) => number,
): void {
  for (let index = 0; ; index++) {
    const { value: header, offset: at } = HEADER.decode(payload, offset, payload.length);
    if (header.done) return;
    offset = each(header.type, header.err, at, index);
  }
}

/** Decodes multi results; a failed transaction becomes a MultiError. */
export const multiReply: ReplyDecoder<OpResult[]> = {
  operation: 'multi',
  decode(context, request, _err, payload, offset) {
    const ops = request.context as MultiOpArgs[];
    const results: OpResult[] = [];
    const errors: (ZooKeeperError | null)[] = [];
    let failedIndex = -1;
    readResults(payload, offset, (type, _headerErr, at, index) => {
      const path = ops[index]?.path;
      switch (type) {
        case OpCode.create: {
          const { value, offset: next } = records.CreateResponse.decode(payload, at, payload.length);
          results.push({ type: 'create', path: context.chroot.toClient(value.path ?? ''), stat: null });
          return next;
        }
        case OpCode.create2: {
          const { value, offset: next } = records.Create2Response.decode(payload, at, payload.length);
          results.push({ type: 'create', path: context.chroot.toClient(value.path ?? ''), stat: value.stat });
          return next;
        }
        case OpCode.delete:
          results.push({ type: 'delete' });
          return at;
        case OpCode.check:
          results.push({ type: 'check' });
          return at;
        case OpCode.setData:
          results.push({ type: 'setData', stat: readStat(payload, at) });
          return at + 68;
        case OpCode.error: {
          const { value, offset: next } = records.ErrorResponse.decode(payload, at, payload.length);
          const operation = `multi[${index}].${ops[index]?.type ?? '?'}`;
          errors[index] = value.err === 0 ? null : errorFromCode(value.err, { path, operation });
          if (value.err !== 0 && value.err !== -2 && failedIndex < 0) failedIndex = index;
          return next;
        }
        default:
          throw new ProtocolError(`multi result of unknown type ${type}`);
      }
    });
    if (errors.length > 0) {
      const all = ops.map((_, i) => errors[i] ?? null);
      if (failedIndex < 0) failedIndex = all.findIndex((e) => e !== null);
      if (failedIndex >= 0) throw new MultiError(all, failedIndex, { operation: 'multi' });
    }
    if (results.length !== ops.length)
      throw new ProtocolError(`multi: ${results.length} results for ${ops.length} ops`);
    return results;
  },
};

/** Decodes multiRead results: each a result or its own error. */
export const multiReadReply: ReplyDecoder<ReadOutcome[]> = {
  operation: 'multiRead',
  decode(_context, request, _err, payload, offset) {
    const ops = request.context as ReadOpArgs[];
    const out: ReadOutcome[] = [];
    readResults(payload, offset, (type, _headerErr, at, index) => {
      const path = ops[index]?.path;
      if (type === OpCode.getData) {
        const { value, offset: next } = records.GetDataResponse.decode(payload, at, payload.length);
        out.push({ type: 'getData', data: Buffer.from(value.data ?? []), stat: value.stat });
        return next;
      }
      if (type === OpCode.getChildren) {
        const { value, offset: next } = records.GetChildrenResponse.decode(payload, at, payload.length);
        out.push({ type: 'getChildren', children: (value.children ?? []).map((c) => c ?? '') });
        return next;
      }
      if (type === OpCode.error) {
        const { value, offset: next } = records.ErrorResponse.decode(payload, at, payload.length);
        out.push(
          errorFromCode(value.err, { path, operation: `multiRead[${index}].${ops[index]?.type ?? '?'}` }),
        );
        return next;
      }
      throw new ProtocolError(`multiRead result of unknown type ${type}`);
    });
    if (out.length !== ops.length)
      throw new ProtocolError(`multiRead: ${out.length} results for ${ops.length} ops`);
    return out;
  },
};
