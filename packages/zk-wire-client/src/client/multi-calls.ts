/** The client's `multi` and `multiRead`: checked, encoded and submitted; a list of no ops answered locally. */
import { encodeMultiRead, multiReadReply, multiReply } from '../protocol/multi.js';
import type { PendingRequest } from '../protocol/pending.js';
import type { Op, OpResult, ReadOp, ReadOutcome } from '../util/multi-types.js';
import type { CallOptions } from '../util/types.js';
import type { ClientCore } from './core.js';
import { encodeMultiCall, multiReadArgs } from './multi-args.js';

/** Answers a request locally with an empty list, in its place (a multi or multiRead of no ops). */
function answeredEmpty<R extends unknown[]>(request: PendingRequest<R>): void {
  request.local = { value: [] as unknown[] as R };
}

/** `multiRead`: reads in one request (server 3.6.0+), gated on the server's version. */
export function multiReadCall(
  core: ClientCore,
  ops: ReadOp[],
  options?: CallOptions,
): Promise<ReadOutcome[]> {
  try {
    const checked = multiReadArgs(core, ops);
    const xid = core.begin();
    const frame = encodeMultiRead(xid, checked);
    if (checked.length === 0) {
      return core.submit(multiReadReply, xid, frame, undefined, checked, options, answeredEmpty);
    }
    return core.submitGated('multiRead', multiReadReply, xid, frame, undefined, checked, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** `multi`: ops applied atomically. */
export function multiCall(core: ClientCore, ops: Op[], options?: CallOptions): Promise<OpResult[]> {
  try {
    const { xid, frame, context } = encodeMultiCall(core, ops);
    // Nothing to send: answered locally, in its place.
    const setup = context.types.length === 0 ? answeredEmpty : undefined;
    return core.submit(multiReply, xid, frame, undefined, context, options, setup);
  } catch (error) {
    return Promise.reject(error);
  }
}
