/**
 * One `timeoutMs` and one `AbortSignal` for a whole call made of several requests (@zkwire/common's
 * Deadline): each request gets the time that is left, so the call as a whole gives up on time. No timer of
 * its own: the client's per-call timeout does the waiting.
 */
import { Deadline as CommonDeadline } from '@zkwire/common';
import type { CallOptions } from '@zkwire/zk-wire-client';
import { invalidDiscoveryArgument } from './errors.js';

export type { CallOptions } from '@zkwire/zk-wire-client';

/** The clock and signal of one call. */
export type Deadline = CommonDeadline;

export const Deadline = {
  /** Checks the options (an InvalidDiscoveryArgumentError on bad ones) and starts the clock. */
  of: (options: CallOptions | undefined): Deadline => CommonDeadline.of(options, invalidDiscoveryArgument),
  /** No limit and no signal: for background work (a repair after a watch fired). */
  NONE: CommonDeadline.NONE,
};
