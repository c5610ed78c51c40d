/** What the micro-benchmarks share: the node path and the Stat of the replies they encode and decode. */
import type { Stat } from '@zkwire/jute-codec';

export const benchPath = '/bench/node-0042';

export const benchStat: Stat = {
  czxid: 0x100000001n,
  mzxid: 0x100000005n,
  ctime: 1_700_000_000_000n,
  mtime: 1_700_000_000_123n,
  version: 4,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: 0n,
  dataLength: 100,
  numChildren: 0,
  pzxid: 0x100000001n,
};
