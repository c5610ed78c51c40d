// Every record of zookeeper.jute that a client sends or receives, as a JuteRecord under its .jute name.
import { juteRecord } from '../layouts';
import type { ACL, ClientInfo, Id, Stat } from './data';
import * as data from './data';
import type {
  AddWatchRequest,
  Create2Response,
  CreateRequest,
  CreateTTLRequest,
  GetACLResponse,
  GetAllChildrenNumberResponse,
  GetChildren2Response,
  GetChildrenResponse,
  GetDataResponse,
  GetEphemeralsRequest,
  GetEphemeralsResponse,
  PathRecord,
  PathVersionRequest,
  PathWatchRequest,
  ReconfigRequest,
  SetACLRequest,
  SetDataRequest,
  StatResponse,
  WatchesRequest,
  WhoAmIResponse,
} from './operations';
import * as ops from './operations';
import type {
  AuthPacket,
  ConnectRequest,
  ConnectResponse,
  ErrorResponse,
  GetSASLRequest,
  MultiHeader,
  ReplyHeader,
  RequestHeader,
  SetSASLResponse,
  SetWatches,
  SetWatches2,
  WatcherEvent,
} from './session';
import * as session from './session';

export type * from './data';
export type * from './operations';
export type * from './session';

/** `class CreateResponse { ustring path; }` */
export type CreateResponse = PathRecord;
/** `class DeleteRequest { ustring path; int version; }` */
export type DeleteRequest = PathVersionRequest;
/** `class CheckVersionRequest { ustring path; int version; }`: only inside multi. */
export type CheckVersionRequest = PathVersionRequest;
/** `class ExistsRequest { ustring path; boolean watch; }` */
export type ExistsRequest = PathWatchRequest;
/** `class GetDataRequest { ustring path; boolean watch; }` */
export type GetDataRequest = PathWatchRequest;
/** `class GetChildrenRequest { ustring path; boolean watch; }` */
export type GetChildrenRequest = PathWatchRequest;
/** `class GetChildren2Request { ustring path; boolean watch; }` */
export type GetChildren2Request = PathWatchRequest;
/** `class ExistsResponse { Stat stat; }` */
export type ExistsResponse = StatResponse;
/** `class SetDataResponse { Stat stat; }` */
export type SetDataResponse = StatResponse;
/** `class SetACLResponse { Stat stat; }` */
export type SetACLResponse = StatResponse;
/** `class GetACLRequest { ustring path; }` */
export type GetACLRequest = PathRecord;
/** `class SyncRequest { ustring path; }` */
export type SyncRequest = PathRecord;
/** `class SyncResponse { ustring path; }` */
export type SyncResponse = PathRecord;
/** `class GetAllChildrenNumberRequest { ustring path; }` */
export type GetAllChildrenNumberRequest = PathRecord;
/** `class CheckWatchesRequest { ustring path; int type; }` */
export type CheckWatchesRequest = WatchesRequest;
/** `class RemoveWatchesRequest { ustring path; int type; }` */
export type RemoveWatchesRequest = WatchesRequest;

/** The codec of every client-facing record of zookeeper.jute, under its `.jute` class name. */
export const records = {
  Id: juteRecord<Id>(data.IdLayout),
  ACL: juteRecord<ACL>(data.ACLLayout),
  Stat: juteRecord<Stat>(data.StatLayout),
  ClientInfo: juteRecord<ClientInfo>(data.ClientInfoLayout),
  RequestHeader: juteRecord<RequestHeader>(session.RequestHeaderLayout),
  ReplyHeader: juteRecord<ReplyHeader>(session.ReplyHeaderLayout),
  ConnectRequest: juteRecord<ConnectRequest>(session.ConnectRequestLayout),
  ConnectResponse: juteRecord<ConnectResponse>(session.ConnectResponseLayout),
  MultiHeader: juteRecord<MultiHeader>(session.MultiHeaderLayout),
  AuthPacket: juteRecord<AuthPacket>(session.AuthPacketLayout),
  WatcherEvent: juteRecord<WatcherEvent>(session.WatcherEventLayout),
  ErrorResponse: juteRecord<ErrorResponse>(session.ErrorResponseLayout),
  SetWatches: juteRecord<SetWatches>(session.SetWatchesLayout),
  SetWatches2: juteRecord<SetWatches2>(session.SetWatches2Layout),
  GetSASLRequest: juteRecord<GetSASLRequest>(session.GetSASLRequestLayout),
  SetSASLResponse: juteRecord<SetSASLResponse>(session.SetSASLResponseLayout),
  CreateRequest: juteRecord<CreateRequest>(ops.CreateRequestLayout),
  CreateTTLRequest: juteRecord<CreateTTLRequest>(ops.CreateTTLRequestLayout),
  CreateResponse: juteRecord<CreateResponse>(ops.CreateResponseLayout),
  Create2Response: juteRecord<Create2Response>(ops.Create2ResponseLayout),
  DeleteRequest: juteRecord<DeleteRequest>(ops.DeleteRequestLayout),
  ExistsRequest: juteRecord<ExistsRequest>(ops.ExistsRequestLayout),
  ExistsResponse: juteRecord<ExistsResponse>(ops.ExistsResponseLayout),
  GetDataRequest: juteRecord<GetDataRequest>(ops.GetDataRequestLayout),
  GetDataResponse: juteRecord<GetDataResponse>(ops.GetDataResponseLayout),
  SetDataRequest: juteRecord<SetDataRequest>(ops.SetDataRequestLayout),
  SetDataResponse: juteRecord<SetDataResponse>(ops.SetDataResponseLayout),
  GetACLRequest: juteRecord<GetACLRequest>(ops.GetACLRequestLayout),
  GetACLResponse: juteRecord<GetACLResponse>(ops.GetACLResponseLayout),
  SetACLRequest: juteRecord<SetACLRequest>(ops.SetACLRequestLayout),
  SetACLResponse: juteRecord<SetACLResponse>(ops.SetACLResponseLayout),
  GetChildrenRequest: juteRecord<GetChildrenRequest>(ops.GetChildrenRequestLayout),
  GetChildrenResponse: juteRecord<GetChildrenResponse>(ops.GetChildrenResponseLayout),
  GetChildren2Request: juteRecord<GetChildren2Request>(ops.GetChildren2RequestLayout),
  GetChildren2Response: juteRecord<GetChildren2Response>(ops.GetChildren2ResponseLayout),
  CheckVersionRequest: juteRecord<CheckVersionRequest>(ops.CheckVersionRequestLayout),
  SyncRequest: juteRecord<SyncRequest>(ops.SyncRequestLayout),
  SyncResponse: juteRecord<SyncResponse>(ops.SyncResponseLayout),
  ReconfigRequest: juteRecord<ReconfigRequest>(ops.ReconfigRequestLayout),
  AddWatchRequest: juteRecord<AddWatchRequest>(ops.AddWatchRequestLayout),
  CheckWatchesRequest: juteRecord<CheckWatchesRequest>(ops.CheckWatchesRequestLayout),
  RemoveWatchesRequest: juteRecord<RemoveWatchesRequest>(ops.RemoveWatchesRequestLayout),
  GetEphemeralsRequest: juteRecord<GetEphemeralsRequest>(ops.GetEphemeralsRequestLayout),
  GetEphemeralsResponse: juteRecord<GetEphemeralsResponse>(ops.GetEphemeralsResponseLayout),
  GetAllChildrenNumberRequest: juteRecord<GetAllChildrenNumberRequest>(ops.GetAllChildrenNumberRequestLayout),
  GetAllChildrenNumberResponse: juteRecord<GetAllChildrenNumberResponse>(
    ops.GetAllChildrenNumberResponseLayout,
  ),
  WhoAmIResponse: juteRecord<WhoAmIResponse>(ops.WhoAmIResponseLayout),
} as const;

/** The name of a record in {@link records}. */
export type RecordName = keyof typeof records;
