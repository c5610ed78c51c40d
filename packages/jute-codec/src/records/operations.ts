// Request and response records of the operations (wire-protocol.md §4.1, §4.2), fields in .jute order.
import { bool, buffer, int32, int64, record, ustring, vector } from '../layouts';
import { type ACL, ACLLayout, type ClientInfo, ClientInfoLayout, type Stat, StatLayout } from './data';

/** `{ ustring path; boolean watch; }`: exists, getData, getChildren, getChildren2 requests. */
export interface PathWatchRequest {
  path: string | null;
  watch: boolean;
}
/** `{ ustring path; }`: getACL, sync, getAllChildrenNumber requests; create and sync responses. */
export interface PathRecord {
  path: string | null;
}
/** `{ Stat stat; }`: exists, setData and setACL responses. */
export interface StatResponse {
  stat: Stat;
}
/** `{ ustring path; int version; }`: delete and check requests. */
export interface PathVersionRequest {
  path: string | null;
  version: number;
}
/** `{ ustring path; int type; }`: checkWatches and removeWatches (type is a WatcherType). */
export interface WatchesRequest {
  path: string | null;
  type: number;
}
/** `class CreateRequest`: create (1), create2 (15), createContainer (19). */
export interface CreateRequest {
  path: string | null;
  data: Uint8Array | null;
  acl: ACL[] | null;
  flags: number;
}
/** `class CreateTTLRequest`: createTTL (21); `ttl` in ms. */
export interface CreateTTLRequest extends CreateRequest {
  ttl: bigint;
}
/** `class Create2Response { ustring path; Stat stat; }` */
export interface Create2Response {
  path: string | null;
  stat: Stat;
}
/** `class GetDataResponse { buffer data; Stat stat; }`: also the reconfig response. */
export interface GetDataResponse {
  data: Buffer | null;
  stat: Stat;
}
/** `class SetDataRequest { ustring path; buffer data; int version; }` */
export interface SetDataRequest {
  path: string | null;
  data: Uint8Array | null;
  version: number;
}
/** `class GetACLResponse { vector<ACL> acl; Stat stat; }` */
export interface GetACLResponse {
  acl: ACL[] | null;
  stat: Stat;
}
/** `class SetACLRequest { ustring path; vector<ACL> acl; int version; }` */
export interface SetACLRequest {
  path: string | null;
  acl: ACL[] | null;
  version: number;
}
/** `class GetChildrenResponse { vector<ustring> children; }` */
export interface GetChildrenResponse {
  children: (string | null)[] | null;
}
/** `class GetChildren2Response { vector<ustring> children; Stat stat; }` */
export interface GetChildren2Response {
  children: (string | null)[] | null;
  stat: Stat;
}
/** `class ReconfigRequest`: reconfig (16). */
export interface ReconfigRequest {
  joiningServers: string | null;
  leavingServers: string | null;
  newMembers: string | null;
  curConfigId: bigint;
}
/** `class AddWatchRequest { ustring path; int mode; }` (mode is an AddWatchMode). */
export interface AddWatchRequest {
  path: string | null;
  mode: number;
}
/** `class GetEphemeralsRequest { ustring prefixPath; }` */
export interface GetEphemeralsRequest {
  prefixPath: string | null;
}
/** `class GetEphemeralsResponse { vector<ustring> ephemerals; }` */
export interface GetEphemeralsResponse {
  ephemerals: (string | null)[] | null;
}
/** `class GetAllChildrenNumberResponse { int totalNumber; }` */
export interface GetAllChildrenNumberResponse {
  totalNumber: number;
}
/** `class WhoAmIResponse { vector<ClientInfo> clientInfo; }` */
export interface WhoAmIResponse {
  clientInfo: ClientInfo[] | null;
}

const pathWatch = (name: string) => record<PathWatchRequest>(name, [ustring('path'), bool('watch')]);
const pathOnly = (name: string) => record<PathRecord>(name, [ustring('path')]);
const statOnly = (name: string) => record<StatResponse>(name, [StatLayout.replicate('stat')]);
const pathVersion = (name: string) => record<PathVersionRequest>(name, [ustring('path'), int32('version')]);
const watches = (name: string) => record<WatchesRequest>(name, [ustring('path'), int32('type')]);

/** The `CreateRequest` record layout, fields in `.jute` order. */
export const CreateRequestLayout = record<CreateRequest>('CreateRequest', [
  ustring('path'),
  buffer('data'),
  vector(ACLLayout, 'acl'),
  int32('flags'),
]);
/** The `CreateTTLRequest` record layout, fields in `.jute` order. */
export const CreateTTLRequestLayout = record<CreateTTLRequest>('CreateTTLRequest', [
  ustring('path'),
  buffer('data'),
  vector(ACLLayout, 'acl'),
  int32('flags'),
  int64('ttl'),
]);
/** The `CreateResponse` record layout, fields in `.jute` order. */
export const CreateResponseLayout = pathOnly('CreateResponse');
/** The `Create2Response` record layout, fields in `.jute` order. */
export const Create2ResponseLayout = record<Create2Response>('Create2Response', [
  ustring('path'),
  StatLayout.replicate('stat'),
]);
/** The `DeleteRequest` record layout, fields in `.jute` order. */
export const DeleteRequestLayout = pathVersion('DeleteRequest');
/** The `ExistsRequest` record layout, fields in `.jute` order. */
export const ExistsRequestLayout = pathWatch('ExistsRequest');
/** The `ExistsResponse` record layout, fields in `.jute` order. */
export const ExistsResponseLayout = statOnly('ExistsResponse');
/** The `GetDataRequest` record layout, fields in `.jute` order. */
export const GetDataRequestLayout = pathWatch('GetDataRequest');
/** The `GetDataResponse` record layout, fields in `.jute` order. */
export const GetDataResponseLayout = record<GetDataResponse>('GetDataResponse', [
  buffer('data'),
  StatLayout.replicate('stat'),
]);
/** The `SetDataRequest` record layout, fields in `.jute` order. */
export const SetDataRequestLayout = record<SetDataRequest>('SetDataRequest', [
  ustring('path'),
  buffer('data'),
  int32('version'),
]);
/** The `SetDataResponse` record layout, fields in `.jute` order. */
export const SetDataResponseLayout = statOnly('SetDataResponse');
/** The `GetACLRequest` record layout, fields in `.jute` order. */
export const GetACLRequestLayout = pathOnly('GetACLRequest');
/** The `GetACLResponse` record layout, fields in `.jute` order. */
export const GetACLResponseLayout = record<GetACLResponse>('GetACLResponse', [
  vector(ACLLayout, 'acl'),
  StatLayout.replicate('stat'),
]);
/** The `SetACLRequest` record layout, fields in `.jute` order. */
export const SetACLRequestLayout = record<SetACLRequest>('SetACLRequest', [
  ustring('path'),
  vector(ACLLayout, 'acl'),
  int32('version'),
]);
/** The `SetACLResponse` record layout, fields in `.jute` order. */
export const SetACLResponseLayout = statOnly('SetACLResponse');
/** The `GetChildrenRequest` record layout, fields in `.jute` order. */
export const GetChildrenRequestLayout = pathWatch('GetChildrenRequest');
/** The `GetChildrenResponse` record layout, fields in `.jute` order. */
export const GetChildrenResponseLayout = record<GetChildrenResponse>('GetChildrenResponse', [
  vector(ustring(), 'children'),
]);
/** The `GetChildren2Request` record layout, fields in `.jute` order. */
export const GetChildren2RequestLayout = pathWatch('GetChildren2Request');
/** The `GetChildren2Response` record layout, fields in `.jute` order. */
export const GetChildren2ResponseLayout = record<GetChildren2Response>('GetChildren2Response', [
  vector(ustring(), 'children'),
  StatLayout.replicate('stat'),
]);
/** The `CheckVersionRequest` record layout, fields in `.jute` order. */
export const CheckVersionRequestLayout = pathVersion('CheckVersionRequest');
/** The `SyncRequest` record layout, fields in `.jute` order. */
export const SyncRequestLayout = pathOnly('SyncRequest');
/** The `SyncResponse` record layout, fields in `.jute` order. */
export const SyncResponseLayout = pathOnly('SyncResponse');
/** The `ReconfigRequest` record layout, fields in `.jute` order. */
export const ReconfigRequestLayout = record<ReconfigRequest>('ReconfigRequest', [
  ustring('joiningServers'),
  ustring('leavingServers'),
  ustring('newMembers'),
  int64('curConfigId'),
]);
/** The `AddWatchRequest` record layout, fields in `.jute` order. */
export const AddWatchRequestLayout = record<AddWatchRequest>('AddWatchRequest', [
  ustring('path'),
  int32('mode'),
]);
/** The `CheckWatchesRequest` record layout, fields in `.jute` order. */
export const CheckWatchesRequestLayout = watches('CheckWatchesRequest');
/** The `RemoveWatchesRequest` record layout, fields in `.jute` order. */
export const RemoveWatchesRequestLayout = watches('RemoveWatchesRequest');
/** The `GetEphemeralsRequest` record layout, fields in `.jute` order. */
export const GetEphemeralsRequestLayout = record<GetEphemeralsRequest>('GetEphemeralsRequest', [
  ustring('prefixPath'),
]);
/** The `GetEphemeralsResponse` record layout, fields in `.jute` order. */
export const GetEphemeralsResponseLayout = record<GetEphemeralsResponse>('GetEphemeralsResponse', [
  vector(ustring(), 'ephemerals'),
]);
/** The `GetAllChildrenNumberRequest` record layout, fields in `.jute` order. */
export const GetAllChildrenNumberRequestLayout = pathOnly('GetAllChildrenNumberRequest');
/** The `GetAllChildrenNumberResponse` record layout, fields in `.jute` order. */
export const GetAllChildrenNumberResponseLayout = record<GetAllChildrenNumberResponse>(
  'GetAllChildrenNumberResponse',
  [int32('totalNumber')],
);
/** The `WhoAmIResponse` record layout, fields in `.jute` order. */
export const WhoAmIResponseLayout = record<WhoAmIResponse>('WhoAmIResponse', [
  vector(ClientInfoLayout, 'clientInfo'),
]);
