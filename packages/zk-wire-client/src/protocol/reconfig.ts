/**
 * reconfig (16, server 3.5.0+; Java `ZooKeeperAdmin.reconfigure`).
 *
 *   request  ReconfigRequest { ustring joiningServers; ustring leavingServers; ustring newMembers;
 *                              long curConfigId; }      curConfigId -1 = any; unused lists are null
 *   reply    GetDataResponse { buffer data; Stat stat; }   the new config and the Stat of /zookeeper/config
 *
 * Needs `reconfigEnabled=true` (else -123 RECONFIGDISABLED) and WRITE on /zookeeper/config; a standalone
 * server cannot reconfigure.
 */
import { encodeRequestFrame, OpCode, records } from '@zkwire/jute-codec';
import type { Stat } from '../util/types.js';
import { ownedData } from './get-data.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** An incremental (joining/leaving) or bulk (members) reconfiguration. */
export interface ReconfigArgs {
  joining: string | null;
  leaving: string | null;
  members: string | null;
  fromConfig: bigint;
}

/** Builds the reconfig frame. */
export function encodeReconfig(xid: number, args: ReconfigArgs): Buffer {
  return encodeRequestFrame(xid, OpCode.reconfig, records.ReconfigRequest, {
    joiningServers: args.joining,
    leavingServers: args.leaving,
    newMembers: args.members,
    curConfigId: args.fromConfig,
  });
}

/** The new configuration. */
export interface ConfigResult {
  data: Buffer;
  stat: Stat;
}

/** Decodes the new config and its Stat. */
export const reconfigReply: ReplyDecoder<ConfigResult> = {
  operation: 'reconfig',
  decode(_context, _request, _err, payload, offset) {
    const { value } = records.GetDataResponse.decode(payload, offset, payload.length);
    return { data: ownedData(value.data), stat: value.stat };
  },
};
