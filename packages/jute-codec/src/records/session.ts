// Headers, handshake, auth, notifications and watch re-registration records of module
// org.apache.zookeeper.proto (zookeeper.jute), fields in .jute order (wire-protocol.md §2, §3, §6, §10).
import { bool, buffer, int32, int64, record, ustring, vector } from '../layouts';

/** `class RequestHeader { int xid; int type; }`: precedes every request after the handshake. */
export interface RequestHeader {
  xid: number;
  type: number;
}
/** `class ReplyHeader { int xid; long zxid; int err; }`: precedes every reply after the handshake. */
export interface ReplyHeader {
  xid: number;
  zxid: bigint;
  err: number;
}
/** `class ConnectRequest`: the first client frame (3.8 schema; the readOnly byte is appended by hand). */
export interface ConnectRequest {
  protocolVersion: number;
  lastZxidSeen: bigint;
  timeOut: number;
  sessionId: bigint;
  passwd: Uint8Array | null;
}
/** `class ConnectResponse`: the first server frame (3.8 schema; an optional readOnly byte may follow). */
export interface ConnectResponse {
  protocolVersion: number;
  timeOut: number;
  sessionId: bigint;
  passwd: Buffer | null;
}
/** `class MultiHeader { int type; boolean done; int err; }`: precedes each op and result of a multi. */
export interface MultiHeader {
  type: number;
  done: boolean;
  err: number;
}
/** `class AuthPacket { int type; ustring scheme; buffer auth; }`: addauth (xid -4, opcode 100). */
export interface AuthPacket {
  type: number;
  scheme: string | null;
  auth: Uint8Array | null;
}
/** `class WatcherEvent { int type; int state; ustring path; }`: the body of a notification (xid -1). */
export interface WatcherEvent {
  type: number;
  state: number;
  path: string | null;
}
/** `class ErrorResponse { int err; }`: a failed op inside a multi result; also the addWatch reply body. */
export interface ErrorResponse {
  err: number;
}
/** `class SetWatches`: re-registers watches after a reconnect (opcode 101). */
export interface SetWatches {
  relativeZxid: bigint;
  dataWatches: (string | null)[] | null;
  existWatches: (string | null)[] | null;
  childWatches: (string | null)[] | null;
}
/** `class SetWatches2`: SetWatches plus persistent watches (opcode 105, 3.6+). */
export interface SetWatches2 extends SetWatches {
  persistentWatches: (string | null)[] | null;
  persistentRecursiveWatches: (string | null)[] | null;
}
/** `class GetSASLRequest { buffer token; }` (opcode 102). */
export interface GetSASLRequest {
  token: Uint8Array | null;
}
/** `class SetSASLResponse { buffer token; }`: the server's SASL challenge. */
export interface SetSASLResponse {
  token: Buffer | null;
}

/** The `RequestHeader` record layout, fields in `.jute` order. */
export const RequestHeaderLayout = record<RequestHeader>('RequestHeader', [int32('xid'), int32('type')]);
/** The `ReplyHeader` record layout, fields in `.jute` order. */
export const ReplyHeaderLayout = record<ReplyHeader>('ReplyHeader', [
  int32('xid'),
  int64('zxid'),
  int32('err'),
]);
/** The `ConnectRequest` record layout, fields in `.jute` order. */
export const ConnectRequestLayout = record<ConnectRequest>('ConnectRequest', [
  int32('protocolVersion'),
  int64('lastZxidSeen'),
  int32('timeOut'),
  int64('sessionId'),
  buffer('passwd'),
]);
/** The `ConnectResponse` record layout, fields in `.jute` order. */
export const ConnectResponseLayout = record<ConnectResponse>('ConnectResponse', [
  int32('protocolVersion'),
  int32('timeOut'),
  int64('sessionId'),
  buffer('passwd'),
]);
/** The `MultiHeader` record layout, fields in `.jute` order. */
export const MultiHeaderLayout = record<MultiHeader>('MultiHeader', [
  int32('type'),
  bool('done'),
  int32('err'),
]);
/** The `AuthPacket` record layout, fields in `.jute` order. */
export const AuthPacketLayout = record<AuthPacket>('AuthPacket', [
  int32('type'),
  ustring('scheme'),
  buffer('auth'),
]);
/** The `WatcherEvent` record layout, fields in `.jute` order. */
export const WatcherEventLayout = record<WatcherEvent>('WatcherEvent', [
  int32('type'),
  int32('state'),
  ustring('path'),
]);
/** The `ErrorResponse` record layout, fields in `.jute` order. */
export const ErrorResponseLayout = record<ErrorResponse>('ErrorResponse', [int32('err')]);
/** The `SetWatches` record layout, fields in `.jute` order. */
export const SetWatchesLayout = record<SetWatches>('SetWatches', [
  int64('relativeZxid'),
  vector(ustring(), 'dataWatches'),
  vector(ustring(), 'existWatches'),
  vector(ustring(), 'childWatches'),
]);
/** The `SetWatches2` record layout, fields in `.jute` order. */
export const SetWatches2Layout = record<SetWatches2>('SetWatches2', [
  int64('relativeZxid'),
  vector(ustring(), 'dataWatches'),
  vector(ustring(), 'existWatches'),
  vector(ustring(), 'childWatches'),
  vector(ustring(), 'persistentWatches'),
  vector(ustring(), 'persistentRecursiveWatches'),
]);
/** The `GetSASLRequest` record layout, fields in `.jute` order. */
export const GetSASLRequestLayout = record<GetSASLRequest>('GetSASLRequest', [buffer('token')]);
/** The `SetSASLResponse` record layout, fields in `.jute` order. */
export const SetSASLResponseLayout = record<SetSASLResponse>('SetSASLResponse', [buffer('token')]);
