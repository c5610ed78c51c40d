/**
 * create (1), create2 (15), createContainer (19), createTTL (21).
 *
 *   request  CreateRequest    { ustring path; buffer data; vector<ACL> acl; int flags; }
 *            CreateTTLRequest { ...CreateRequest; long ttl; }                 (createTTL only)
 *   reply    create:  CreateResponse { ustring path; }
 *            create2, createContainer, createTTL: Create2Response { ustring path; Stat stat; }
 *
 * Containers always go as createContainer and TTL modes as createTTL (the Java client's choice); the server
 * answers both with path + Stat (wire-protocol.md §4.1, §4.4).
 */
import { CreateFlag, encodeRequestFrame, fast, OpCode, records } from '@zkwire/jute-codec';
import type { ACL, CreateMode, Stat } from '../util/types.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** The jute flags of each create mode. */
export const createFlags: Record<CreateMode, number> = {
  persistent: CreateFlag.PERSISTENT,
  ephemeral: CreateFlag.EPHEMERAL,
  'persistent-sequential': CreateFlag.PERSISTENT_SEQUENTIAL,
  'ephemeral-sequential': CreateFlag.EPHEMERAL_SEQUENTIAL,
  container: CreateFlag.CONTAINER,
  'persistent-ttl': CreateFlag.PERSISTENT_WITH_TTL,
  'persistent-sequential-ttl': CreateFlag.PERSISTENT_SEQUENTIAL_WITH_TTL,
};

/** True for the modes whose name gets a sequence suffix. */
export function isSequential(mode: CreateMode): boolean {
  return mode.includes('sequential');
}

/** True for the TTL modes. */
export function isTtl(mode: CreateMode): boolean {
  return mode.endsWith('-ttl');
}

/** The opcode a create of this mode goes out as. */
export function createOpCode(mode: CreateMode, withStat: boolean): number {
  if (mode === 'container') return OpCode.createContainer;
  if (isTtl(mode)) return OpCode.createTTL;
  return withStat ? OpCode.create2 : OpCode.create;
}

/** A validated create: server path, bytes, ACL, mode and TTL. */
export interface CreateArgs {
  serverPath: string;
  data: Uint8Array | null;
  acl: ACL[];
  mode: CreateMode;
  ttl: bigint;
}

/** Builds the create frame for the mode. */
export function encodeCreate(xid: number, args: CreateArgs, withStat: boolean): Buffer {
  const opCode = createOpCode(args.mode, withStat);
  const base = { path: args.serverPath, data: args.data, acl: args.acl, flags: createFlags[args.mode] };
  if (opCode === OpCode.createTTL)
    return encodeRequestFrame(xid, opCode, records.CreateTTLRequest, { ...base, ttl: args.ttl });
  return fast.encodeCreateRequestFrame(xid, opCode, args.serverPath, args.data, args.acl, base.flags);
}

/** The result of create2. */
export interface CreateResult {
  path: string;
  stat: Stat;
}

/** Reads the path of a create reply (create: the whole reply; create2: the Stat that follows is left). */
export const createPathReply: ReplyDecoder<string> = {
  operation: 'create',
  decode(context, _request, _err, payload, offset) {
    const { path } = fast.decodeCreateResponse(payload, offset, payload.length);
    return context.chroot.toClient(path ?? '');
  },
};

/**
 * Reads path and Stat: create2, createContainer and createTTL replies all carry both (create2() never goes as
 * create, whose reply has no Stat). The path loses the chroot.
 */
export const createReply: ReplyDecoder<CreateResult> = {
  operation: 'create',
  decode(context, _request, _err, payload, offset) {
    const { path, stat } = fast.decodeCreate2Response(payload, offset, payload.length);
    return { path: context.chroot.toClient(path ?? ''), stat };
  },
};
