/** What a checker rule reports. */
export const RuleName = {
  mutualExclusion: 'mutual-exclusion',
  leaseLimit: 'lease-limit',
  oneLeaderPerTerm: 'one-leader-per-term',
  staleToken: 'stale-token-accepted',
  queueItemLost: 'queue-item-lost',
  writeNotVisible: 'committed-write-not-visible',
  cacheDiverged: 'cache-diverged',
} as const;
export type RuleName = (typeof RuleName)[keyof typeof RuleName];

export interface Violation {
  rule: RuleName;
  /** One line a human can act on: which holds, tokens, zxids, paths. */
  detail: string;
}

/** Zxids are logged as decimal strings: compare them as 64-bit integers. */
export function compareZxid(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `0x`-prefixed hex, as ZooKeeper's own logs print zxids. */
export function hexZxid(zxid: string): string {
  return `0x${BigInt(zxid).toString(16)}`;
}
