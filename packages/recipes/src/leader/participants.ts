/**
 * Who stands in an election, as Curator's `LeaderSelector.getParticipants` reads it (curator/leader.md §7.1):
 * the contenders in sort order, each node's data decoded as the UTF-8 participant id, nodes gone in the
 * meantime skipped, and the first node read successfully marked as the leader.
 */

import { type CompressionProvider, decompressData } from '../internal-common/compression.js';
import { childrenOrNone } from '../internal-common/missing-node.js';
import { sortContenders } from '../internal-common/sequence-sort.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isNoNode } from '../internal-common/zk-errors.js';

/** One contender of an election (Curator's Participant). */
export interface Participant {
  /** The participant id: the node's data as UTF-8 (a Java LeaderSelector without an id writes its address). */
  readonly id: string;
  /** True for the first contender, the one that leads. */
  readonly isLeader: boolean;
}

/** The placeholder Curator returns from `getLeader()` when nobody stands. */
export const NO_PARTICIPANT: Participant = Object.freeze({ id: '', isLeader: false });

const utf8 = new TextDecoder();

/**
 * The participants of the election at `path`, whose contenders are named after `lockName`; at most `limit`
 * of them (the leader alone needs one read, not one per contender). Ids are decompressed with `compression`
 * (a BadRecipeDataError for one that does not decompress, as Curator's read fails).
 */
export async function readParticipants(
  client: RecipeClient,
  path: string,
  lockName: string,
  limit = Number.POSITIVE_INFINITY,
  compression?: CompressionProvider,
): Promise<Participant[]> {
  const children = await childrenOrNone(client, path);
  const participants: Participant[] = [];
  for (const child of sortContenders(children, lockName)) {
    if (participants.length >= limit) break;
    try {
      const node = `${path}/${child}`;
      const { data } = await client.getData(node);
      participants.push({
        id: utf8.decode(decompressData(compression, node, data)),
        isLeader: participants.length === 0,
      });
    } catch (error) {
      if (!isNoNode(error)) throw error;
    }
  }
  return participants;
}

/** The leader of the election at `path`, or {@link NO_PARTICIPANT} when nobody stands. */
export async function readLeader(
  client: RecipeClient,
  path: string,
  lockName: string,
  compression?: CompressionProvider,
): Promise<Participant> {
  const [leader] = await readParticipants(client, path, lockName, 1, compression);
  return leader ?? NO_PARTICIPANT;
}
