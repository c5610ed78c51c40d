/**
 * zkCli's read commands: ls, get, stat, getAcl, getAllChildrenNumber, getEphemerals, sync, whoami, config.
 * Output is zkCli's (sorted `[a, b]` lists, StatPrinter lines, `'scheme,'id` ACL lines); `--json` gives the
 * same data as one JSON object.
 */
import { writeFile } from 'node:fs/promises';
import { NoNodeError, type Stat, type Watcher } from '@zkwire/zk-wire-client';
import { aclLines, aclToJson } from '../acl-text.js';
import type { CommandContext, CommandSpec, Flags } from '../command-spec.js';
import { dataAsText, showData } from '../data-format.js';
import { statLines, statToJson } from '../stat-format.js';

const STAT_FLAG = { flags: '-s, --stat', description: 'also print the Stat' } as const;
const WATCH_FLAG = { flags: '-w, --watch', description: 'leave a watch; its event is printed' } as const;

function watcherOf(context: CommandContext, flags: Flags): Watcher | undefined {
  return flags.watch ? context.session.printWatchEvent : undefined;
}

/** Lists a subtree depth first, parents before children, siblings sorted (zkCli's `ls -R`). */
async function listRecursive(context: CommandContext, root: string, watcher: Watcher | undefined) {
  const zk = context.client();
  const paths: string[] = [];
  const visit = async (path: string): Promise<void> => {
    paths.push(path);
    const children = (await zk.getChildren(path, { ...context.call, watch: watcher })).sort();
    for (const child of children) await visit(path === '/' ? `/${child}` : `${path}/${child}`);
  };
  await visit(root);
  return paths;
}

const ls: CommandSpec = {
  name: 'ls',
  args: ['<path>'],
  summary: 'list the children of a node, sorted',
  zkCli: 'ls [-s] [-w] [-R] path',
  flags: [
    STAT_FLAG,
    WATCH_FLAG,
    { flags: '-R, --recursive', description: 'the whole subtree, one path a line' },
  ],
  async run(context, [path], flags) {
    const zk = context.client();
    const watch = watcherOf(context, flags);
    if (flags.recursive) {
      const paths = await listRecursive(context, path as string, watch);
      context.out.result({ path, paths }, () => paths);
      return;
    }
    let children: string[];
    let stat: Stat | undefined;
    if (flags.stat) ({ children, stat } = await zk.getChildren2(path as string, { ...context.call, watch }));
    else children = await zk.getChildren(path as string, { ...context.call, watch });
    children.sort();
    context.out.result({ path, children, ...(stat ? { stat: statToJson(stat) } : {}) }, () => [
      `[${children.join(', ')}]`,
      ...(stat ? statLines(stat) : []),
    ]);
  },
};

const get: CommandSpec = {
  name: 'get',
  args: ['<path>'],
  summary: 'print the data of a node (UTF-8 text, or 0x-prefixed hex for binary data)',
  zkCli: 'get [-s] [-w] path',
  flags: [STAT_FLAG, WATCH_FLAG, { flags: '--out <file>', description: 'write the raw bytes to a file' }],
  async run(context, [path], flags) {
    const { data, stat } = await context.client().getData(path as string, {
      ...context.call,
      watch: watcherOf(context, flags),
    });
    if (typeof flags.out === 'string') {
      await writeFile(flags.out, data ?? Buffer.alloc(0));
      context.out.result(
        {
          path,
          file: flags.out,
          bytes: data?.length ?? 0,
          ...(flags.stat ? { stat: statToJson(stat) } : {}),
        },
        () => [`${data?.length ?? 0} bytes written to ${flags.out}`, ...(flags.stat ? statLines(stat) : [])],
      );
      return;
    }
    context.out.result(
      { path, data: showData(data), ...(flags.stat ? { stat: statToJson(stat) } : {}) },
      () => [dataAsText(data), ...(flags.stat ? statLines(stat) : [])],
    );
  },
};

const stat: CommandSpec = {
  name: 'stat',
  args: ['<path>'],
  summary: 'print the Stat of a node',
  zkCli: 'stat [-w] path',
  flags: [WATCH_FLAG],
  async run(context, [path], flags) {
    const result = await context.client().exists(path as string, {
      ...context.call,
      watch: watcherOf(context, flags),
    });
    if (!result) throw new NoNodeError({ path, operation: 'exists' });
    context.out.result({ path, stat: statToJson(result) }, () => statLines(result));
  },
};

const getAcl: CommandSpec = {
  name: 'getAcl',
  args: ['<path>'],
  summary: 'print the ACL of a node',
  zkCli: 'getAcl [-s] path',
  flags: [STAT_FLAG],
  async run(context, [path], flags) {
    const { acl, stat: aclStat } = await context.client().getACL(path as string, context.call);
    context.out.result(
      { path, acl: aclToJson(acl), ...(flags.stat ? { stat: statToJson(aclStat) } : {}) },
      () => [...aclLines(acl), ...(flags.stat ? statLines(aclStat) : [])],
    );
  },
};

const getAllChildrenNumber: CommandSpec = {
  name: 'getAllChildrenNumber',
  args: ['<path>'],
  summary: 'the number of nodes below a path, all levels (server 3.6+)',
  zkCli: 'getAllChildrenNumber path',
  async run(context, [path]) {
    const count = await context.client().getAllChildrenNumber(path as string, context.call);
    context.out.result({ path, count }, () => String(count));
  },
};

const getEphemerals: CommandSpec = {
  name: 'getEphemerals',
  args: ['[path]'],
  summary: "this session's ephemeral nodes under a prefix (server 3.6+)",
  zkCli: 'getEphemerals path',
  async run(context, [path]) {
    const prefix = path ?? '/';
    const ephemerals = (await context.client().getEphemerals(prefix, context.call)).sort();
    context.out.result({ path: prefix, ephemerals }, () => `[${ephemerals.join(', ')}]`);
  },
};

const sync: CommandSpec = {
  name: 'sync',
  args: ['<path>'],
  summary: 'make the connected server catch up with the leader',
  zkCli: 'sync path',
  async run(context, [path]) {
    await context.client().sync(path as string, context.call);
    context.out.result({ path, sync: 'ok' }, () => 'Sync is OK');
  },
};

const whoami: CommandSpec = {
  name: 'whoami',
  args: [],
  summary: 'the identities of this connection (server 3.7+)',
  zkCli: 'whoami',
  async run(context) {
    const identities = await context.client().whoAmI(context.call);
    context.out.result({ identities }, () => [
      'Auth scheme: User',
      ...identities.map((info) => `${info.authScheme}: ${info.user}`),
    ]);
  },
};

/** The client addresses of a dynamic config: `server.N=host:quorum:election[:role];[clientHost:]clientPort` → `clientHost:clientPort`. */
export function clientAddresses(configText: string): string[] {
  const addresses: string[] = [];
  for (const line of configText.split('\n')) {
    const match = /^server\.\d+=([^:;]+)[^;]*;(?:(.+):)?(\d+)$/.exec(line.trim());
    if (!match) continue;
    const host = match[2] && match[2] !== '0.0.0.0' ? match[2] : match[1];
    addresses.push(`${host}:${match[3]}`);
  }
  return addresses;
}

const config: CommandSpec = {
  name: 'config',
  args: [],
  summary: 'print the ensemble configuration (/zookeeper/config)',
  zkCli: 'config [-c] [-w] [-s]',
  flags: [
    { flags: '-c, --client', description: 'only the client addresses, as a connect string' },
    WATCH_FLAG,
    STAT_FLAG,
  ],
  async run(context, _args, flags) {
    const { data, stat: configStat } = await context.client().getConfig({
      ...context.call,
      watch: watcherOf(context, flags),
    });
    const text = data ? data.toString('utf8') : '';
    const statPart = flags.stat ? { stat: statToJson(configStat) } : {};
    if (flags.client) {
      const connectString = clientAddresses(text).join(',');
      context.out.result({ connectString, ...statPart }, () => [
        connectString,
        ...(flags.stat ? statLines(configStat) : []),
      ]);
      return;
    }
    context.out.result({ config: text, ...statPart }, () => [
      ...(text.length > 0 ? [text.trimEnd()] : []),
      ...(flags.stat ? statLines(configStat) : []),
    ]);
  },
};

/** The read commands. */
export const readCommands: readonly CommandSpec[] = [
  ls,
  get,
  stat,
  getAcl,
  getAllChildrenNumber,
  getEphemerals,
  sync,
  whoami,
  config,
];
