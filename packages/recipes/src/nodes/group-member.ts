/**
 * GroupMember: membership in a group (Curator's `org.apache.curator.framework.recipes.nodes.GroupMember`):
 * this member's EPHEMERAL node `<membershipPath>/<thisId>` holding its payload, kept present across
 * deletions and session expiries, plus a cache of the group. Java and Node members of one group see each
 * other: the layout and bytes are Curator's.
 */

import { checkNodeName } from '@zkwire/common';
import type { CacheClient } from '../cache/cache-client.js';
import type { CacheEngine } from '../cache/cache-options.js';
import { childPath } from '../cache/cache-tree.js';
import { CuratorCache } from '../cache/curator-cache.js';
import {
  type CompressionProvider,
  type RecipeCompression,
  resolveCompression,
} from '../internal-common/compression.js';
import { Deadline, type WaitOptions } from '../internal-common/deadline.js';
import { nodeDataOf } from '../internal-common/default-data.js';
import {
  IllegalRecipeStateError,
  InvalidRecipeArgumentError,
  invalidRecipeArgument,
} from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { validateRecipePath } from '../internal-common/validate.js';
import { MembershipNode } from './membership-node.js';

/** Options of {@link GroupMember}. */
export interface GroupMemberOptions {
  /** This member's data; default the local address, as Curator's default. Strings are UTF-8. */
  payload?: Uint8Array | string;
  /** The group cache's engine; default `'auto'`. */
  engine?: CacheEngine;
  /**
   * Compress this member's payload and decompress the others' (a Curator client with `enableCompression()`,
   * CURATOR-725); see CuratorCache's `compression`. `currentMembers()` gives the payloads uncompressed.
   */
  compression?: RecipeCompression;
}

/** A member id: one node name (@zkwire/common's rules), not `zookeeper`. */
function validateMemberId(id: unknown): string {
  checkNodeName(id, 'thisId', invalidRecipeArgument);
  if (id === 'zookeeper') throw new InvalidRecipeArgumentError('thisId', 'must not be "zookeeper"');
  return id as string;
}

function validatePayload(payload: unknown): Uint8Array | string | undefined {
  if (payload === undefined || typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  throw new InvalidRecipeArgumentError('payload', 'must be a Uint8Array or a string');
}

/** One member of a group, and a live view of the whole group. */
export class GroupMember implements AsyncDisposable {
  readonly membershipPath: string;
  readonly thisId: string;
  private readonly client: CacheClient;
  private readonly payload: Uint8Array | string | undefined;
  private readonly groupCache: CuratorCache;
  private readonly compression: CompressionProvider | undefined;
  private node: MembershipNode | undefined;
  private state: 'latent' | 'started' | 'closed' = 'latent';

  constructor(client: CacheClient, membershipPath: string, thisId: string, options: GroupMemberOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidRecipeArgumentError('options', 'must be an object');
    }
    for (const key of Object.keys(options)) {
      if (key !== 'payload' && key !== 'engine' && key !== 'compression') {
        throw new InvalidRecipeArgumentError(`options.${key}`, 'is not a GroupMember option');
      }
    }
    this.client = client;
    this.membershipPath = validateRecipePath(membershipPath, 'membershipPath');
    this.thisId = validateMemberId(thisId);
    this.payload = validatePayload(options.payload);
    this.compression = resolveCompression(options.compression);
    // Only the direct children are members (Curator ignores deeper nodes and the group node itself).
    this.groupCache = new CuratorCache(client, this.membershipPath, {
      maxDepth: 1,
      ...(options.engine === undefined ? {} : { engine: options.engine }),
      ...(this.compression === undefined ? {} : { compression: this.compression }),
    });
  }

  /** Creates this member's node (in the background) and starts the group cache. */
  async start(): Promise<void> {
    if (this.state !== 'latent') throw new IllegalRecipeStateError('GroupMember was already started');
    this.state = 'started';
    const data = await nodeDataOf(this.payload);
    if (this.state !== 'started') return; // closed meanwhile
    this.node = new MembershipNode(
      this.client,
      childPath(this.membershipPath, this.thisId),
      data,
      this.compression,
    );
    // Reported as the group cache's `'error'` (the events of a member are the cache's).
    const reporter = new Reporter(this.groupCache, this.client, `GroupMember ${this.node.path}`);
    this.node.onError = (error) => reporter.background(error, 'the member node cannot be kept');
    this.node.start();
    try {
      await this.groupCache.start();
    } catch (error) {
      await this.close(); // leave no member node behind a failed start
      throw error;
    }
  }

  /** Waits until this member's node was created and the group loaded; false after `timeoutMs`. */
  async awaitJoined(options?: WaitOptions): Promise<boolean> {
    const deadline = Deadline.of(options); // one deadline for both waits
    if (this.state === 'latent') throw new IllegalRecipeStateError('GroupMember is not started');
    const node = this.node;
    if (node === undefined) return false;
    if (!(await node.waitForInitialCreate(deadline.toOptions()))) return false;
    return this.groupCache.awaitInitialized(deadline.toOptions());
  }

  /**
   * The group: member id → payload, from the cache (Curator's `getCurrentMembers`). This member is always
   * in it, with its current payload, even before its node is seen.
   */
  currentMembers(): Map<string, Uint8Array> {
    const members = new Map<string, Uint8Array>();
    for (const child of this.groupCache.children(this.membershipPath)) {
      members.set(this.idFromPath(child.path), child.data ?? new Uint8Array(0));
    }
    if (this.state === 'started' && this.node !== undefined && !members.has(this.thisId)) {
      members.set(this.thisId, this.node.currentData);
    }
    return members;
  }

  /** The member id of a member node's path (its last segment). */
  idFromPath(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1);
  }

  /** Changes this member's payload (written now, and kept for re-creates). */
  async setThisData(payload: Uint8Array | string): Promise<void> {
    if (this.state !== 'started' || this.node === undefined) {
      throw new IllegalRecipeStateError('GroupMember is not started');
    }
    const checked = validatePayload(payload);
    await this.node.setData(await nodeDataOf(checked));
  }

  /** The group cache (events of members joining, changing and leaving). */
  get cache(): CuratorCache {
    return this.groupCache;
  }

  /** Leaves the group: closes the cache, then deletes this member's node. Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    await this.groupCache.close();
    await this.node?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}
