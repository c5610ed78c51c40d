/**
 * kazoo's `ShallowParty` (kazoo/recipe/party.py), the party its SetPartitioner joins: each member is an
 * EPHEMERAL child `<uuid hex>-<identifier>` of the party path holding the identifier (UTF-8), and the members
 * are read from the names alone: the text after the first `-`.
 */
import { randomUUID } from 'node:crypto';
import { deleteGuaranteed } from '../internal-common/guaranteed-delete.js';
import type { RecipeCallOptions, RecipeClient, RecipeWatcher } from '../internal-common/zk-client.js';
import { isNodeExists, isNoNode } from '../internal-common/zk-errors.js';
import { ensurePath } from './kazoo-lock.js';

/** The member identifier a ShallowParty node name carries (kazoo: `child[child.find('-') + 1:]`). */
export function partyMemberOf(nodeName: string): string {
  return nodeName.slice(nodeName.indexOf('-') + 1);
}

/** Our membership of one kazoo ShallowParty. */
export class ShallowParty {
  readonly path: string;
  readonly identifier: string;
  readonly nodeName: string;
  readonly #client: RecipeClient;
  #participating = false;

  constructor(client: RecipeClient, path: string, identifier: string) {
    this.#client = client;
    this.path = path;
    this.identifier = identifier;
    this.nodeName = `${randomUUID().replaceAll('-', '')}-${identifier}`;
  }

  /** True between join and leave. */
  get participating(): boolean {
    return this.#participating;
  }

  /** Creates our member node (one already there, from a retried create, is ours). */
  async join(options?: RecipeCallOptions): Promise<void> {
    const data = new TextEncoder().encode(this.identifier);
    for (;;) {
      try {
        await this.#client.create(`${this.path}/${this.nodeName}`, data, { ...options, mode: 'ephemeral' });
        break;
      } catch (error) {
        if (isNodeExists(error)) break;
        if (!isNoNode(error)) throw error;
        await ensurePath(this.#client, this.path);
      }
    }
    this.#participating = true;
  }

  /** Deletes our member node. */
  async leave(): Promise<void> {
    this.#participating = false;
    await deleteGuaranteed(this.#client, `${this.path}/${this.nodeName}`);
  }

  /** The node names of every member, with a watch armed by the same read when one is given. */
  children(watch?: RecipeWatcher): Promise<string[]> {
    return this.#client.getChildren(this.path, watch ? { watch } : {});
  }
}
