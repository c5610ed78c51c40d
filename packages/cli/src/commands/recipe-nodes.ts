/**
 * What the recipe inspectors share: reading the children of a recipe path with their data and Stat, in
 * parallel, leaving out nodes that went away in the meantime (a lock released while we look is normal).
 */
import { isNoNode, type Stat } from '@zkwire/zk-wire-client';
import type { CommandContext } from '../command-spec.js';
import { type ShownData, showData } from '../data-format.js';
import { hex } from '../stat-format.js';

/** A child of a recipe path, as read. */
export interface RecipeNode {
  name: string;
  path: string;
  data: Buffer | null;
  stat: Stat;
}

/** Joins a parent and a child name. */
export function childPath(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** The children names of `path`, or [] when `path` does not exist (a recipe nobody has used yet). */
export async function childrenOrNone(context: CommandContext, path: string): Promise<string[]> {
  try {
    return await context.client().getChildren(path, context.call);
  } catch (error) {
    if (isNoNode(error)) return [];
    throw error;
  }
}

/** Reads the named children of `parent` (data and Stat), in the given order, skipping vanished ones. */
export async function readNodes(
  context: CommandContext,
  parent: string,
  names: readonly string[],
): Promise<RecipeNode[]> {
  const zk = context.client();
  const read = await Promise.all(
    names.map(async (name): Promise<RecipeNode | undefined> => {
      const path = childPath(parent, name);
      try {
        const { data, stat } = await zk.getData(path, context.call);
        return { name, path, data, stat };
      } catch (error) {
        if (isNoNode(error)) return undefined;
        throw error;
      }
    }),
  );
  return read.filter((node): node is RecipeNode => node !== undefined);
}

/** A contender as printed and serialised: its node, owning session and data (Curator puts an id or IP there). */
export interface ContenderView {
  node: string;
  session: string;
  data: ShownData;
}

/** The view of a read node. */
export function contenderView(node: RecipeNode): ContenderView {
  return { node: node.name, session: hex(node.stat.ephemeralOwner), data: showData(node.data) };
}

/** One line for a contender: `   1. node  session 0x...  data`. */
export function contenderLine(context: CommandContext, index: number, view: ContenderView): string {
  const { colors } = context.out;
  const data = view.data.encoding === 'hex' ? `0x${view.data.value}` : String(view.data.value);
  return `  ${String(index + 1).padStart(2)}. ${view.node}  ${colors.yellow(`session ${view.session}`)}  ${colors.dim(data)}`;
}
