/**
 * @zkwire/jute-codec: ZooKeeper's jute binary serialization, described with buffer-layout. No I/O: bytes
 * in, typed records out; values in, bytes out.
 * @packageDocumentation
 */
export { decode, encode } from './codec';
export { decodeConnectResponse } from './connect-response';
export {
  AddWatchMode,
  CreateFlag,
  EventType,
  KeeperState,
  OpCode,
  Perms,
  WatcherType,
  Xid,
} from './constants';
export { JuteCodecError, JuteCodecErrorCode } from './errors';
export { fast } from './fast';
export { DEFAULT_MAX_FRAME_LENGTH, FrameReader, type FrameReaderOptions } from './frame-reader';
export { encodeConnectRequest, encodeRequestFrame } from './frame-writer';
export {
  bool,
  buffer,
  int32,
  int64,
  type JuteLayout,
  type JuteRecord,
  type JuteType,
  record,
  ustring,
  vector,
} from './layouts';
export * from './records';
