// module org.apache.zookeeper.data of zookeeper.jute: Id, ACL, Stat, ClientInfo.
import { int32, int64, record, ustring } from '../layouts';

/** An identity: `scheme` (world, digest, ip, auth, x509, sasl) and the scheme's `id`. */
export interface Id {
  scheme: string | null;
  id: string | null;
}

/** An ACL entry: permission bits (see `Perms`) granted to an identity. */
export interface ACL {
  perms: number;
  id: Id;
}

/** A znode's metadata. Times are ms since the epoch; zxids, times and ephemeralOwner are longs. */
export interface Stat {
  czxid: bigint;
  mzxid: bigint;
  ctime: bigint;
  mtime: bigint;
  version: number;
  cversion: number;
  aversion: number;
  ephemeralOwner: bigint;
  dataLength: number;
  numChildren: number;
  pzxid: bigint;
}

/** One identity of a connection, as whoAmI returns it (3.7+). */
export interface ClientInfo {
  authScheme: string | null;
  user: string | null;
}

/** `class Id { ustring scheme; ustring id; }` */
export const IdLayout = record<Id>('Id', [ustring('scheme'), ustring('id')]);

/** `class ACL { int perms; Id id; }` */
export const ACLLayout = record<ACL>('ACL', [int32('perms'), IdLayout.replicate('id')]);

/** `class Stat { long czxid; long mzxid; long ctime; long mtime; int version; int cversion; int aversion;
 *  long ephemeralOwner; int dataLength; int numChildren; long pzxid; }` (68 bytes) */
export const StatLayout = record<Stat>('Stat', [
  int64('czxid'),
  int64('mzxid'),
  int64('ctime'),
  int64('mtime'),
  int32('version'),
  int32('cversion'),
  int32('aversion'),
  int64('ephemeralOwner'),
  int32('dataLength'),
  int32('numChildren'),
  int64('pzxid'),
]);

/** `class ClientInfo { ustring authScheme; ustring user; }` */
export const ClientInfoLayout = record<ClientInfo>('ClientInfo', [ustring('authScheme'), ustring('user')]);
