/**
 * The guarded resource, client side: a znode holding the highest fencing token it accepted. A holder reads
 * it, refuses itself when a newer token is recorded, and writes its own with a versioned setData (a
 * concurrent writer makes the version check fail, so check and write are one step in the server's order).
 */
import { isBadVersion, type ZooKeeperClient } from '@zkwire/zk-wire-client';

export type GuardOutcome =
  | { kind: 'accepted'; zxid: bigint }
  | { kind: 'rejected'; seen: number }
  | { kind: 'abandoned'; why: string };

const CALL = { timeoutMs: 4_000 } as const;

/** Writes `token` through the guard at `path` while `alive()` holds; never throws (failures are outcomes). */
export async function fencedWrite(
  client: ZooKeeperClient,
  path: string,
  token: number,
  hold: string,
  alive: () => boolean,
): Promise<GuardOutcome> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (!alive()) return { kind: 'abandoned', why: 'hold lost' };
    try {
      const { data, stat } = await client.getData(path, CALL);
      const seen = Number((JSON.parse(data.toString('utf8')) as { token: number }).token);
      if (seen > token) return { kind: 'rejected', seen };
      if (!alive()) return { kind: 'abandoned', why: 'hold lost' };
      const body = JSON.stringify({ token, hold });
      const written = await client.setData(path, body, { ...CALL, version: stat.version });
      return { kind: 'accepted', zxid: written.mzxid };
    } catch (error) {
      if (isBadVersion(error)) continue;
      return { kind: 'abandoned', why: errorName(error) };
    }
  }
  return { kind: 'abandoned', why: 'guard contended' };
}

/** An unfenced marker write (its mzxid orders the hold); `undefined` when it failed or the hold is gone. */
export async function markWrite(
  client: ZooKeeperClient,
  path: string,
  body: string,
  alive: () => boolean,
): Promise<bigint | undefined> {
  if (!alive()) return undefined;
  try {
    return (await client.setData(path, body, CALL)).mzxid;
  } catch {
    return undefined;
  }
}

/** A short name for an error in the log: its ZooKeeper code when it has one. */
export function errorName(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error) return String((error as { code: unknown }).code);
  return error instanceof Error ? error.name : String(error);
}
