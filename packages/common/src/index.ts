/**
 * @zkwire/common: the helpers every sibling package of the client needs, written once. Private: each
 * published package inlines it at build (tsup `noExternal`), so no version of it can skew against another.
 */
export { type Backoff, backoffMs } from './backoff.js';
export { onClientState } from './client-state.js';
export { Deadline, DeadlineExpired, type DeadlineOptions } from './deadline.js';
export {
  errorFamilyMarker,
  hasErrorMarker,
  type InvalidArgument,
  invalidArgumentMessage,
  markError,
} from './error-family.js';
export { checkNodeName, checkZnodePath, pathProblem } from './paths.js';
export { Reporter, WarningCode, type WarnLogger } from './safe-emit.js';
export { type SleepOptions, sleep } from './sleep.js';
export { checkDuration, checkPositiveInteger, checkSignal, checkTimeout } from './validate.js';
export { waitFor } from './wait-for.js';
