/**
 * @zkwire/zk-wire-client/internal: pieces for sibling packages (bench, security, tests). Not a stable API.
 * @packageDocumentation
 */
export { checkedMulti, encodeMulti, multiReply } from './protocol/multi.js';
export { MULTI_HEADER_SIZE } from './protocol/multi-parts.js';
export { atLeast, FEATURE_SINCE, parseServerVersion } from './protocol/server-version.js';
export { batchWatches, SET_WATCHES_MAX_LENGTH } from './protocol/set-watches.js';
export { WatchTables } from './protocol/watches.js';
export { saslAuthenticatorFactory } from './security/sasl-hook.js';
export { AsyncQueue } from './util/async-queue.js';
export { Chroot, pathProblem, validatePath } from './util/paths.js';
