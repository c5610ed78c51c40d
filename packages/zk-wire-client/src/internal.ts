/**
 * @zkwire/zk-wire-client/internal: pieces for sibling packages (bench, security, tests). Not a stable API.
 * @packageDocumentation
 */
export { AsyncQueue } from './async-queue.js';
export { checkedMulti, encodeMulti, multiReply } from './ops/multi.js';
export { MULTI_HEADER_SIZE } from './ops/multi-parts.js';
export { batchWatches, SET_WATCHES_MAX_LENGTH } from './ops/set-watches.js';
export { Chroot, pathProblem, validatePath } from './paths.js';
export { saslAuthenticatorFactory } from './sasl-hook.js';
export { atLeast, FEATURE_SINCE, parseServerVersion } from './server-version.js';
export { WatchTables } from './watches.js';
