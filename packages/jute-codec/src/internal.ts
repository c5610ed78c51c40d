/**
 * For sibling packages of the zkwire monorepo only; not a public API and may change without notice.
 * @packageDocumentation
 */

export { byteOffsetOf } from './fast/array-buffer-views';
export { bufferView, REPLY_HEADER_SIZE, STAT_SIZE } from './fast/decoders';
export { allocFrame, releaseFrameBytes } from './fast/frame-alloc';
export { int32At, uint32At } from './fast/read';
export { readStat as readStatInView } from './fast/stat-reader';
export { ViewedFrame } from './fast/viewed-frame';
export { copyBytes, putInt32, putString, utf8Length } from './fast/write';
export { checkInt32, REQUEST_PREFIX_SIZE } from './frame-writer';
export { Cursor, checkRange, type FieldsOf, juteRecord } from './layouts';
export * as layouts from './records/layouts';
