/**
 * `tree PATH`: the subtree drawn with its sizes, child counts and the sessions that own its ephemeral nodes,
 * and totals at the end. Each level is read in parallel (the client pipelines the calls).
 */
import type { Stat } from '@zkwire/zk-wire-client';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { integerFlag } from '../connection-options.js';
import { hex } from '../stat-format.js';

/** One node of the tree as read. */
export interface TreeNode {
  name: string;
  path: string;
  dataLength: number;
  numChildren: number;
  /** The owning session, `0x...`, for ephemeral nodes. */
  ephemeralOwner?: string;
  /** Absent below the depth limit. */
  children?: TreeNode[];
}

async function readNode(
  context: CommandContext,
  path: string,
  depth: number,
  maxDepth: number,
): Promise<TreeNode | undefined> {
  let children: string[];
  let stat: Stat;
  try {
    ({ children, stat } = await context.client().getChildren2(path, context.call));
  } catch (error) {
    // A node deleted while the tree is read is left out, unless it is the root asked for.
    if (depth > 0 && (error as { code?: string }).code === 'NONODE') return undefined;
    throw error;
  }
  const node: TreeNode = {
    name: path === '/' ? '/' : (path.slice(path.lastIndexOf('/') + 1) as string),
    path,
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
    ...(stat.ephemeralOwner !== 0n ? { ephemeralOwner: hex(stat.ephemeralOwner) } : {}),
  };
  if (depth < maxDepth) {
    const read = await Promise.all(
      children
        .sort()
        .map((child) =>
          readNode(context, path === '/' ? `/${child}` : `${path}/${child}`, depth + 1, maxDepth),
        ),
    );
    node.children = read.filter((child): child is TreeNode => child !== undefined);
  }
  return node;
}

function totals(node: TreeNode): { nodes: number; bytes: number; ephemeral: number } {
  const sum = { nodes: 1, bytes: node.dataLength, ephemeral: node.ephemeralOwner ? 1 : 0 };
  for (const child of node.children ?? []) {
    const below = totals(child);
    sum.nodes += below.nodes;
    sum.bytes += below.bytes;
    sum.ephemeral += below.ephemeral;
  }
  return sum;
}

function drawTree(context: CommandContext, root: TreeNode): string[] {
  const { colors } = context.out;
  const label = (node: TreeNode) => {
    const facts = [`${node.dataLength} B`];
    if (node.numChildren > 0) facts.push(`${node.numChildren} children`);
    if (node.ephemeralOwner) facts.push(colors.yellow(`ephemeral ${node.ephemeralOwner}`));
    if (node.numChildren > 0 && !node.children) facts.push(colors.dim('not shown'));
    return `${node.numChildren > 0 ? colors.bold(node.name) : node.name} ${colors.dim(`(${facts.join(', ')})`)}`;
  };
  const lines = [label({ ...root, name: root.path })];
  const walk = (node: TreeNode, indent: string) => {
    const children = node.children ?? [];
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      lines.push(`${indent}${last ? '└── ' : '├── '}${label(child)}`);
      walk(child, `${indent}${last ? '    ' : '│   '}`);
    });
  };
  walk(root, '');
  return lines;
}

const tree: CommandSpec = {
  name: 'tree',
  args: ['[path]'],
  summary: 'draw a subtree with data sizes, child counts and ephemeral owners',
  flags: [{ flags: '-d, --depth <levels>', description: 'stop this many levels below the path' }],
  async run(context, [path], flags) {
    const maxDepth =
      typeof flags.depth === 'string' ? integerFlag('--depth', flags.depth) : Number.POSITIVE_INFINITY;
    const root = (await readNode(context, path ?? '/', 0, maxDepth)) as TreeNode;
    const sum = totals(root);
    context.out.result({ tree: root, totals: sum }, () => [
      ...drawTree(context, root),
      context.out.colors.dim(`${sum.nodes} nodes, ${sum.bytes} bytes of data, ${sum.ephemeral} ephemeral`),
    ]);
  },
};

/** The tree command. */
export const treeCommands: readonly CommandSpec[] = [tree];
