/**
 * The frame and view helpers `@zkwire/zk-wire-client` is built on. For that package only; not a public API and
 * may change without notice. Each export here is imported by the client's sources.
 * @packageDocumentation
 */

export { byteOffsetOf } from './fast/array-buffer-views';
export { bufferView, STAT_SIZE } from './fast/decoders';
export { allocFrame, FrameSlab, releaseFrameBytes, sharedFrameSlab } from './fast/frame-alloc';
export { int32At, uint32At } from './fast/read';
export { readStat as readStatInView } from './fast/stat-reader';
export { ViewedFrame } from './fast/viewed-frame';
export { copyBytes, putString, utf8Length } from './fast/write';
