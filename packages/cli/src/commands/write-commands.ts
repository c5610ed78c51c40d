/**
 * zkCli's write commands: create, set, delete, deleteall, setAcl, addauth. Data is typed as text (or `0x`
 * hex), or read raw from a file with `--in`.
 */
import { readFile } from 'node:fs/promises';
import type { CreateMode } from '@zkwire/zk-wire-client';
import { parseAclText } from '../acl-text.js';
import type { CommandContext, CommandSpec, Flags } from '../command-spec.js';
import { integerFlag } from '../connection-options.js';
import { parseDataArgument } from '../data-format.js';
import { UsageError } from '../errors.js';
import { statLines, statToJson } from '../stat-format.js';

const VERSION_FLAG = {
  flags: '-v, --version <version>',
  description: 'only if the node has this version (-1: any)',
} as const;
const IN_FLAG = { flags: '--in <file>', description: 'read the data, raw bytes, from a file' } as const;

function versionOf(flags: Flags): number | undefined {
  return typeof flags.version === 'string' ? integerFlag('-v', flags.version, -1) : undefined;
}

/** The data of a write: `--in file` or the argument; both at once is ambiguous. */
async function dataOf(data: string | undefined, flags: Flags): Promise<Buffer | null> {
  if (typeof flags.in === 'string') {
    if (data !== undefined)
      throw new UsageError('give the data either as an argument or with --in, not both');
    try {
      return await readFile(flags.in);
    } catch (error) {
      throw new UsageError(
        `--in: cannot read ${flags.in} (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
  }
  return parseDataArgument(data);
}

/** zkCli's -e/-s/-c/-t flags as one create mode; combinations the server has no mode for are refused. */
export function createModeOf(flags: Flags): { mode: CreateMode; ttlMs?: number } {
  const { ephemeral, sequential, container } = flags;
  const ttl = typeof flags.ttl === 'string' ? integerFlag('-t', flags.ttl, 1) : undefined;
  if (container && (ephemeral || sequential || ttl !== undefined)) {
    throw new UsageError('-c (container) cannot be combined with -e, -s or -t');
  }
  if (ttl !== undefined) {
    if (ephemeral) throw new UsageError('-t (TTL) cannot be combined with -e: TTL nodes are persistent');
    return { mode: sequential ? 'persistent-sequential-ttl' : 'persistent-ttl', ttlMs: ttl };
  }
  if (container) return { mode: 'container' };
  if (ephemeral) return { mode: sequential ? 'ephemeral-sequential' : 'ephemeral' };
  return { mode: sequential ? 'persistent-sequential' : 'persistent' };
}

const create: CommandSpec = {
  name: 'create',
  args: ['<path>', '[data]', '[acl]'],
  summary: 'create a node (persistent unless a flag says otherwise)',
  zkCli: 'create [-s] [-e] [-c] [-t ttl] path [data] [acl]',
  flags: [
    { flags: '-e, --ephemeral', description: 'ephemeral: gone with this session' },
    { flags: '-s, --sequential', description: 'append a 10-digit sequence number' },
    { flags: '-c, --container', description: 'container: removed by the server once empty' },
    { flags: '-t, --ttl <ms>', description: 'TTL node (server needs extendedTypesEnabled)' },
    IN_FLAG,
  ],
  async run(context, [path, data, acl], flags) {
    const { mode, ttlMs } = createModeOf(flags);
    const created = await context.client().create(path as string, await dataOf(data, flags), {
      ...context.call,
      mode,
      ...(ttlMs !== undefined ? { ttlMs } : {}),
      ...(acl !== undefined ? { acl: parseAclText(acl) } : {}),
    });
    context.out.result({ path: created, mode }, () => `Created ${created}`);
  },
};

const set: CommandSpec = {
  name: 'set',
  args: ['<path>', '[data]'],
  summary: 'set the data of a node',
  zkCli: 'set [-s] [-v version] path data',
  flags: [{ flags: '-s, --stat', description: 'print the new Stat' }, VERSION_FLAG, IN_FLAG],
  async run(context, [path, data], flags) {
    if (data === undefined && typeof flags.in !== 'string') {
      throw new UsageError('set needs the data: set path data, or set path --in file');
    }
    const stat = await context.client().setData(path as string, await dataOf(data, flags), {
      ...context.call,
      version: versionOf(flags),
    });
    context.out.result({ path, stat: statToJson(stat) }, () => (flags.stat ? statLines(stat) : []));
  },
};

const deleteCommand: CommandSpec = {
  name: 'delete',
  args: ['<path>'],
  summary: 'delete a node that has no children',
  zkCli: 'delete [-v version] path',
  flags: [VERSION_FLAG],
  async run(context, [path], flags) {
    await context.client().delete(path as string, { ...context.call, version: versionOf(flags) });
    context.out.result({ path, deleted: true }, () => []);
  },
};

const deleteall: CommandSpec = {
  name: 'deleteall',
  args: ['<path>'],
  summary: 'delete a node and everything below it',
  zkCli: 'deleteall path',
  async run(context, [path]) {
    await context.client().deleteRecursive(path as string, context.call);
    context.out.result({ path, deleted: true }, () => []);
  },
};

/** Every path of a subtree, parents first (for setAcl -R). */
async function subtree(context: CommandContext, root: string): Promise<string[]> {
  const children = await context.client().getChildren(root, context.call);
  const below = await Promise.all(
    children.map((child) => subtree(context, root === '/' ? `/${child}` : `${root}/${child}`)),
  );
  return [root, ...below.flat()];
}

const setAcl: CommandSpec = {
  name: 'setAcl',
  args: ['<path>', '<acl>'],
  summary: 'set the ACL of a node (scheme:id:perms,...)',
  zkCli: 'setAcl [-s] [-v version] [-R] path acl',
  flags: [
    { flags: '-s, --stat', description: 'print the new Stat' },
    VERSION_FLAG,
    { flags: '-R, --recursive', description: 'the node and every node below it' },
  ],
  async run(context, [path, aclText], flags) {
    const acl = parseAclText(aclText as string);
    const zk = context.client();
    const version = versionOf(flags);
    if (flags.recursive && version !== undefined) throw new UsageError('-v cannot be combined with -R');
    const targets = flags.recursive ? await subtree(context, path as string) : [path as string];
    let stat = await zk.setACL(targets[0] as string, acl, { ...context.call, version });
    for (const target of targets.slice(1)) await zk.setACL(target, acl, context.call);
    if (targets.length > 1) stat = (await zk.exists(path as string, context.call)) ?? stat;
    context.out.result({ path, nodes: targets.length, stat: statToJson(stat) }, () =>
      flags.stat ? statLines(stat) : [],
    );
  },
};

const addauth: CommandSpec = {
  name: 'addauth',
  args: ['<scheme>', '[auth]'],
  summary: 'add credentials to this session (digest user:password); they are never printed',
  zkCli: 'addauth scheme auth',
  async run(context, [scheme, auth]) {
    await context.client().addAuth(scheme as string, auth ?? '', context.call);
    // The credentials are not echoed back, not even in JSON.
    context.out.result({ scheme, added: true }, () => []);
  },
};

/** The write commands. */
export const writeCommands: readonly CommandSpec[] = [create, set, deleteCommand, deleteall, setAcl, addauth];
