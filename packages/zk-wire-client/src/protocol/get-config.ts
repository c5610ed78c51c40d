/**
 * getConfig: a getData (4) of `/zookeeper/config`, the ensemble's configuration, read outside the chroot.
 *
 *   request  GetDataRequest  { ustring path; boolean watch; }    path is always /zookeeper/config
 *   reply    GetDataResponse { buffer data; Stat stat; }
 *
 * The watch is registered only on success, under the config watch key (config-watch.ts), which stands for
 * the config node whatever the chroot.
 */
import { fast } from '@zkwire/jute-codec';
import { type GetDataResult, ownedData } from './get-data.js';
import type { ReplyDecoder } from './reply-decoder.js';

/** Decodes data + Stat; the config watcher is registered under its key as the reply settles. */
export const getConfigReply: ReplyDecoder<GetDataResult> = {
  operation: 'getConfig',
  registers: 'config',
  decode(_context, _request, _err, payload, offset) {
    const value = fast.decodeGetDataResponse(payload, offset, payload.length);
    value.data = ownedData(value.data);
    return value as GetDataResult;
  },
};
