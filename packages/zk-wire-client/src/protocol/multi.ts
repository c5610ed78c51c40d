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
import type { Buffer } from 'node:buffer';
import { fast, OpCode, records } from '@zkwire/jute-codec';
import {
  allocFrame,
  bufferView,
  byteOffsetOf,
  int32At,
  readStatInView,
  STAT_SIZE,
  ViewedFrame,
} from '@zkwire/jute-codec/internal';
import { errorFromCode, MultiError, ProtocolError, type ZooKeeperError } from '../util/errors.js';
import type { OpResult, ReadOutcome } from '../util/multi-types.js';
import { type CreateArgs, createFlags, createOpCode } from './create.js';
import { ownedData } from './get-data.js';
import {
  aclSize,
  bufferSize,
  checkFits,
  MULTI_HEADER_SIZE,
  pathBytes,
  pathSize,
  readIntAt,
  readMultiHeader,
  writeAcl,
  writeBufferField,
  writeMultiHeader,
  writePath,
  writePathBytes,
} from './multi-parts.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** A checked write op of a multi, one at a time (tests build multis from these; see {@link checkedMulti}). */
export type MultiOpArgs =
  | { type: 'create'; path: string; create: CreateArgs }
  | { type: 'delete'; path: string; serverPath: string; version: number }
  | { type: 'setData'; path: string; serverPath: string; data: Uint8Array | null; version: number }
  | { type: 'check'; path: string; serverPath: string; version: number };

/**
 * The checked write ops of a multi, one array per field rather than an object per op: a multi of 10 setData
 * is a hot path, and ten objects per call were about a fifth of what it allocated (sampled at 1,000 in
 * flight). The multi has `paths.length` ops; op `i` is `types[i]` at `paths[i]`, sent as the UTF-8 bytes
 * `serverPaths[i]` (the server's path, as the frame holds it: made once per path and kept, see CheckedPaths);
 * a create's arguments are in `creates[i]`, the others' in `data[i]` (setData) and `versions[i]`. The client
 * checks every multi into one reused CheckedMulti (client/multi-calls.ts), so the other arrays may be longer.
 */
export interface CheckedMulti {
  readonly types: MultiOpArgs['type'][];
  /** One path per op, in an array of its own for each multi: the reply's decoder keeps it (MultiContext). */
  paths: string[];
  readonly serverPaths: (Uint8Array | undefined)[];
  readonly data: (Uint8Array | null)[];
  readonly versions: number[];
  /** Only when the multi has a create. */
  creates: CreateArgs[] | undefined;
}

/** Room for `count` checked ops. */
export function emptyCheckedMulti(count: number): CheckedMulti {
  return {
    types: new Array(count),
    paths: new Array(count),
    serverPaths: new Array(count),
    data: new Array(count),
    versions: new Array(count),
    creates: undefined,
  };
}

/** Sets op `index` of `checked`: a delete, check or setData (`data` null but for setData). */
export function setCheckedOp(
  checked: CheckedMulti,
  index: number,
  type: 'delete' | 'check' | 'setData',
  path: string,
  serverPath: Uint8Array,
  data: Uint8Array | null,
  version: number,
): void {
  checked.types[index] = type;
  checked.paths[index] = path;
  checked.serverPaths[index] = serverPath;
  checked.data[index] = data;
  checked.versions[index] = version;
}

/** Sets op `index` of `checked`: a create. */
export function setCheckedCreate(
  checked: CheckedMulti,
  index: number,
  path: string,
  create: CreateArgs,
): void {
  checked.types[index] = 'create';
  checked.paths[index] = path;
  checked.serverPaths[index] = pathBytes(create.serverPath);
  checked.data[index] = create.data;
  checked.versions[index] = -1;
  (checked.creates ??= [])[index] = create;
}

/** A multi of checked ops given one by one. */
export function checkedMulti(ops: readonly MultiOpArgs[]): CheckedMulti {
  const checked = emptyCheckedMulti(ops.length);
  ops.forEach((op, i) => {
    if (op.type === 'create') setCheckedCreate(checked, i, op.path, op.create);
    else
      setCheckedOp(
        checked,
        i,
        op.type,
        op.path,
        pathBytes(op.serverPath),
        op.type === 'setData' ? op.data : null,
        op.version,
      );
  });
  return checked;
}

/**
 * What a multi's reply decoder keeps of its request while it is in flight: each op's type and client path,
 * for the count of results and the labels of errors. It is kept apart from the checked ops (and the data
 * they hold) because the young-generation GC copies every object still in flight: with 1,000 multis of 10
 * ops in flight, one small array per multi (its paths; its types too when they are mixed), not ten objects.
 */
export interface MultiContext {
  readonly types: readonly MultiOpArgs['type'][];
  readonly paths: readonly string[];
}

/** A checked read op of a multiRead. */
export interface ReadOpArgs {
  type: 'getData' | 'getChildren';
  path: string;
  serverPath: string;
}

/** The opcode op `i` goes out as inside a multi. */
function opCodeOf(checked: CheckedMulti, i: number): number {
  switch (checked.types[i]!) {
    case 'create':
      // create2 for plain modes too, so that each create result carries its Stat.
      return createOpCode(checked.creates![i]!.mode, true);
    case 'delete':
      return OpCode.delete;
    case 'setData':
      return OpCode.setData;
    case 'check':
      return OpCode.check;
  }
}

/** The encoded size of op `i`'s request record. */
function opSize(checked: CheckedMulti, i: number): number {
  const path = 4 + checked.serverPaths[i]!.length;
  switch (checked.types[i]!) {
    case 'create': {
      const c = checked.creates![i]!;
      const size = path + bufferSize(c.data) + aclSize(c.acl) + 4;
      return createOpCode(c.mode, true) === OpCode.createTTL ? size + 8 : size;
    }
    case 'setData':
      return path + bufferSize(checked.data[i]!) + 4;
    default:
      return path + 4;
  }
}

/** Writes op `i`'s request record at `offset`; returns the next offset. */
function writeOp(checked: CheckedMulti, i: number, opCode: number, out: ViewedFrame, offset: number): number {
  let at = writePathBytes(out, offset, checked.serverPaths[i]!);
  switch (checked.types[i]!) {
    case 'create': {
      const c = checked.creates![i]!;
      at = writeBufferField(out, at, c.data);
      at = writeAcl(out, at, c.acl);
      at = out.int32(at, createFlags[c.mode]);
      if (opCode === OpCode.createTTL) {
        out.bytes.writeBigInt64BE(c.ttl, at);
        at += 8;
      }
      return at;
    }
    case 'setData':
      at = writeBufferField(out, at, checked.data[i]!);
      return out.int32(at, checked.versions[i]!);
    default:
      return out.int32(at, checked.versions[i]!);
  }
}

/** Starts a multi frame of `body` bytes (after the request header); returns it. */
function multiFrame(xid: number, opCode: number, body: number): ViewedFrame {
  const out = new ViewedFrame(allocFrame(12 + body));
  out.int32(0, 8 + body);
  out.int32(4, xid);
  out.int32(8, opCode);
  return out;
}

function checkFilled(out: ViewedFrame, offset: number): Buffer {
  if (offset !== out.bytes.length)
    throw new ProtocolError(`multi frame size mismatch: ${offset} != ${out.bytes.length}`);
  return out.bytes;
}

/** Builds the multi frame. */
export function encodeMulti(xid: number, checked: CheckedMulti): Buffer {
  const count = checked.paths.length;
  let body = MULTI_HEADER_SIZE;
  for (let i = 0; i < count; i++) body += MULTI_HEADER_SIZE + opSize(checked, i);
  const out = multiFrame(xid, OpCode.multi, body);
  let offset = 12;
  for (let i = 0; i < count; i++) {
    const opCode = opCodeOf(checked, i);
    offset = writeMultiHeader(out, offset, opCode, false);
    offset = writeOp(checked, i, opCode, out, offset);
  }
  return checkFilled(out, writeMultiHeader(out, offset, -1, true));
}

/** Builds the multiRead frame (watch = false in each sub-request, as Java sends). */
export function encodeMultiRead(xid: number, ops: ReadOpArgs[]): Buffer {
  let body = MULTI_HEADER_SIZE;
  for (const op of ops) body += MULTI_HEADER_SIZE + pathSize(op.serverPath) + 1;
  const out = multiFrame(xid, OpCode.multiRead, body);
  let offset = 12;
  for (const op of ops) {
    offset = writeMultiHeader(
      out,
      offset,
      op.type === 'getData' ? OpCode.getData : OpCode.getChildren,
      false,
    );
    offset = writePath(out, offset, op.serverPath);
    offset = out.byte(offset, 0);
  }
  return checkFilled(out, writeMultiHeader(out, offset, -1, true));
}

/** Reads each result header + body; calls `each` with (type, err, offset of the body) and gets the next offset. */
function readResults(
  payload: Buffer,
  offset: number,
  each: (type: number, err: number, at: number, index: number) => number,
): void {
  for (let index = 0; ; index++) {
    const header = readMultiHeader(payload, offset);
    if (header.done) return;
    offset = each(header.type, header.err, offset + MULTI_HEADER_SIZE, index);
  }
}

/** Decodes multi results; a failed transaction becomes a MultiError. */
export const multiReply: ReplyDecoder<OpResult[]> = {
  operation: 'multi',
  decode(context, request, _err, payload, offset) {
    const { types, paths } = request.context as MultiContext;
    // Sized once: a 10-op multi's results grown by push took a 17-slot array (V8 grows by half plus 16).
    const results: OpResult[] = new Array(types.length);
    let filled = 0;
    let errors: (ZooKeeperError | null)[] | undefined;
    let failedIndex = -1;
    // Headers are read in place, with no object per result, and the setData results' Stats through one
    // DataView of the read buffer taken once per reply: a multi of 10 setData is a hot path, and the codec's
    // public decoder would find the view again per Stat (`buf.buffer` is a getter, not a field).
    const view = bufferView(payload);
    const base = byteOffsetOf(payload);
    for (let index = 0; ; index++) {
      checkFits(payload, offset, MULTI_HEADER_SIZE, 'MultiHeader');
      const type = view.getInt32(base + offset);
      if (payload[offset + 4] !== 0) break;
      const at = offset + MULTI_HEADER_SIZE;
      switch (type) {
        case OpCode.setData:
          checkFits(payload, at, STAT_SIZE, 'SetDataResponse');
          results[filled++] = { type: 'setData', stat: readStatInView(view, base + at) };
          offset = at + STAT_SIZE;
          break;
        case OpCode.create: {
          const { path } = fast.decodeCreateResponse(payload, at, payload.length);
          results[filled++] = { type: 'create', path: context.chroot.toClient(path ?? ''), stat: null };
          offset = afterPath(payload, at);
          break;
        }
        case OpCode.create2: {
          const { path, stat } = fast.decodeCreate2Response(payload, at, payload.length);
          results[filled++] = { type: 'create', path: context.chroot.toClient(path ?? ''), stat };
          offset = afterPath(payload, at) + STAT_SIZE;
          break;
        }
        case OpCode.delete:
          results[filled++] = { type: 'delete' };
          offset = at;
          break;
        case OpCode.check:
          results[filled++] = { type: 'check' };
          offset = at;
          break;
        case OpCode.error: {
          const err = readIntAt(payload, at, 'multi error result');
          const operation = `multi[${index}].${types[index] ?? '?'}`;
          errors ??= [];
          errors[index] = err === 0 ? null : errorFromCode(err, { path: paths[index], operation });
          if (err !== 0 && err !== -2 && failedIndex < 0) failedIndex = index;
          offset = at + 4;
          break;
        }
        default:
          throw new ProtocolError(`multi result of unknown type ${type}`);
      }
    }
    if (errors !== undefined) {
      const all = types.map((_, i) => errors[i] ?? null);
      if (failedIndex < 0) failedIndex = all.findIndex((e) => e !== null);
      if (failedIndex >= 0) throw new MultiError(all, failedIndex, { operation: 'multi' });
    }
    if (filled !== types.length) throw new ProtocolError(`multi: ${filled} results for ${types.length} ops`);
    return results;
  },
};

/** Where the path of a create result at `at` ends; its length was read and checked by the result's decoder. */
function afterPath(payload: Buffer, at: number): number {
  return at + 4 + Math.max(int32At(payload, at), 0);
}

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
        out.push({ type: 'getData', data: ownedData(value.data), stat: value.stat });
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
