/**
 * Helpers of the SetPartitioner tests: who holds each item's lock on the server, and a check that the
 * members' reported shares divide the set with one owner per item, matching those locks.
 */
import { expect } from 'vitest';
import { kazooPredecessor } from '../src/partitioner/kazoo-lock.js';
import type { SetPartitioner } from '../src/partitioner/set-partitioner.js';
import { childrenOf, type TestClient } from './helpers.js';

/** The session (hex) holding each item's kazoo lock: its lowest contender's ephemeral owner. */
export async function lockHolders(
  client: TestClient,
  path: string,
  items: readonly string[],
): Promise<Map<string, string | undefined>> {
  const holders = new Map<string, string | undefined>();
  for (const item of items) {
    const children = await childrenOf(client, `${path}/locks/${item}`);
    const holder = children.find((child) => kazooPredecessor(children, child) === null);
    if (holder === undefined) {
      holders.set(item, undefined);
      continue;
    }
    const stat = await client.exists(`${path}/locks/${item}/${holder}`);
    holders.set(item, stat === null ? undefined : stat.ephemeralOwner.toString(16));
  }
  return holders;
}

/** A member's session (hex) and the share it reports. */
export interface ReportedShare {
  session: string;
  items: readonly string[] | undefined;
}

/**
 * True when every member reports a share, the shares are disjoint and cover `items`, and each item's lock on
 * the server is held by the session of the member that reports it.
 */
export async function isOnePartitioning(
  client: TestClient,
  path: string,
  items: readonly string[],
  shares: readonly ReportedShare[],
): Promise<boolean> {
  if (shares.some((share) => share.items === undefined)) return false;
  const owner = new Map<string, string>();
  for (const share of shares) {
    for (const item of share.items ?? []) {
      if (owner.has(item)) return false;
      owner.set(item, share.session);
    }
  }
  if (owner.size !== items.length || items.some((item) => !owner.has(item))) return false;
  const holders = await lockHolders(client, path, items);
  return items.every((item) => holders.get(item) === owner.get(item));
}

/** The share a Node partitioner reports: its items while acquired. */
export function nodeShare(partitioner: SetPartitioner, client: TestClient): ReportedShare {
  return {
    session: client.sessionId.toString(16),
    items: partitioner.state === 'acquired' ? partitioner.items : undefined,
  };
}

/** Answers every `release` with `releaseSet()`, as kazoo's documented loop does. */
export function releaseWhenAsked(partitioner: SetPartitioner): void {
  partitioner.on('state', (state) => {
    if (state === 'release') partitioner.releaseSet().catch(() => {});
  });
}

/** Asserts the final partitioning, with the shares in the message when it is not one. */
export async function expectOnePartitioning(
  client: TestClient,
  path: string,
  items: readonly string[],
  shares: readonly ReportedShare[],
): Promise<void> {
  const holders = Object.fromEntries(await lockHolders(client, path, items));
  expect({ one: await isOnePartitioning(client, path, items, shares), shares, holders }).toMatchObject({
    one: true,
  });
}
