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

export const CreateRequestLayout = record<CreateRequest>('CreateRequest', [
  ustring('path'),
  buffer('data'),
  vector(ACLLayout, 'acl'),
  int32('flags'),
]);
export const CreateTTLRequestLayout = record<CreateTTLRequest>('CreateTTLRequest', [
  ustring('path'),
  buffer('data'),
  vector(ACLLayout, 'acl'),
  int32('flags'),
  int64('ttl'),
]);
export const CreateResponseLayout = pathOnly('CreateResponse');
export const Create2ResponseLayout = record<Create2Response>('Create2Response', [
  ustring('path'),
  StatLayout.replicate('stat'),
]);
export const DeleteRequestLayout = pathVersion('DeleteRequest');
export const ExistsRequestLayout = pathWatch('ExistsRequest');
export const ExistsResponseLayout = statOnly('ExistsResponse');
export const GetDataRequestLayout = pathWatch('GetDataRequest');
export const GetDataResponseLayout = record<GetDataResponse>('GetDataResponse', [
  buffer('data'),
  StatLayout.replicate('stat'),
]);
export const SetDataRequestLayout = record<SetDataRequest>('SetDataRequest', [
  ustring('path'),
  buffer('data'),
  int32('version'),
]);
export const SetDataResponseLayout = statOnly('SetDataResponse');
export const GetACLRequestLayout = pathOnly('GetACLRequest');
export const GetACLResponseLayout = record<GetACLResponse>('GetACLResponse', [
  vector(ACLLayout, 'acl'),
  StatLayout.replicate('stat'),
]);
export const SetACLRequestLayout = record<SetACLRequest>('SetACLRequest', [
  ustring('path'),
  vector(ACLLayout, 'acl'),
  int32('version'),
]);
export const SetACLResponseLayout = statOnly('SetACLResponse');
export const GetChildrenRequestLayout = pathWatch('GetChildrenRequest');
export const GetChildrenResponseLayout = record<GetChildrenResponse>('GetChildrenResponse', [
  vector(ustring(), 'children'),
]);
export const GetChildren2RequestLayout = pathWatch('GetChildren2Request');
export const GetChildren2ResponseLayout = record<GetChildren2Response>('GetChildren2Response', [
  vector(ustring(), 'children'),
  StatLayout.replicate('stat'),
]);
export const CheckVersionRequestLayout = pathVersion('CheckVersionRequest');
export const SyncRequestLayout = pathOnly('SyncRequest');
export const SyncResponseLayout = pathOnly('SyncResponse');
export const ReconfigRequestLayout = record<ReconfigRequest>('ReconfigRequest', [
  ustring('joiningServers'),
  ustring('leavingServers'),
  ustring('newMembers'),
  int64('curConfigId'),
]);
export const AddWatchRequestLayout = record<AddWatchRequest>('AddWatchRequest', [
  ustring('path'),
  int32('mode'),
]);
export const CheckWatchesRequestLayout = watches('CheckWatchesRequest');
export const RemoveWatchesRequestLayout = watches('RemoveWatchesRequest');
export const GetEphemeralsRequestLayout = record<GetEphemeralsRequest>('GetEphemeralsRequest', [
  ustring('prefixPath'),
]);
export const GetEphemeralsResponseLayout = record<GetEphemeralsResponse>('GetEphemeralsResponse', [
  vector(ustring(), 'ephemerals'),
]);
export const GetAllChildrenNumberRequestLayout = pathOnly('GetAllChildrenNumberRequest');
export const GetAllChildrenNumberResponseLayout = record<GetAllChildrenNumberResponse>(
  'GetAllChildrenNumberResponse',
  [int32('totalNumber')],
);
export const WhoAmIResponseLayout = record<WhoAmIResponse>('WhoAmIResponse', [
  vector(ClientInfoLayout, 'clientInfo'),
]);
