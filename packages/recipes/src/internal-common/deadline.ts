/**
 * One timeout and one AbortSignal for a whole blocking call (the siblings' shared Deadline): every await inside
 * the call goes through `guard`, which gives up when either fires.
 */
import { Deadline as CommonDeadline } from '@zkwire/common';
import { invalidRecipeArgument } from './recipe-errors.js';

export { DeadlineExpired, sleep } from '@zkwire/common';

/** Options every blocking recipe call takes. */
export interface WaitOptions {
  /** Give up after this many milliseconds (the call then reports a timeout, as Curator returns false). */
  timeoutMs?: number;
  /** Abort the call: it rejects with the signal's reason and leaves no node behind. */
  signal?: AbortSignal;
}

/** The remaining time and the abort signal of one blocking call. */
export type Deadline = CommonDeadline;

export const Deadline = {
  /** Validates the options (an InvalidRecipeArgumentError on bad input) and starts the clock. */
  of: (options: WaitOptions | undefined): Deadline => CommonDeadline.of(options, invalidRecipeArgument),
};
