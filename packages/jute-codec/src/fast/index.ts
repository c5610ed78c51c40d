import {
  decodeCreate2Response,
  decodeCreateResponse,
  decodeGetChildrenResponse,
  decodeGetDataResponse,
  decodeReplyHeader,
  decodeStat,
  decodeStatResponse,
} from './decoders';
import {
  encodeCreateRequestFrame,
  encodeDeleteRequestFrame,
  encodeExistsRequestFrame,
  encodeGetChildren2RequestFrame,
  encodeGetChildrenRequestFrame,
  encodeGetDataRequestFrame,
  encodeSetDataRequestFrame,
} from './encoders';

/**
 * Fast paths for the hot records: fixed-offset readers and single-allocation frame writers. They give the
 * same values, bytes and error codes as the generic `records` (held equal by property tests); decoders
 * take `end` (default: the buffer's length) and never read past it.
 */
export const fast = {
  decodeReplyHeader,
  decodeStat,
  decodeGetDataResponse,
  /** ExistsResponse, SetDataResponse and SetACLResponse all carry one Stat. */
  decodeExistsResponse: decodeStatResponse,
  decodeSetDataResponse: decodeStatResponse,
  decodeGetChildrenResponse,
  /** create replies: the path (create), or the path and the Stat (create2, containers, TTL nodes). */
  decodeCreateResponse,
  decodeCreate2Response,
  encodeGetDataRequestFrame,
  encodeExistsRequestFrame,
  encodeGetChildrenRequestFrame,
  encodeGetChildren2RequestFrame,
  encodeSetDataRequestFrame,
  encodeDeleteRequestFrame,
  encodeCreateRequestFrame,
} as const;
