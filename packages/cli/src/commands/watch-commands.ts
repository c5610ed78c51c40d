/**
 * Watches: zkCli's addWatch and removewatches, and `watch`, which streams the persistent recursive events
 * of a subtree until Ctrl-C (the loop's signal removes the watch on the way out).
 */
import type { WatchType } from '@zkwire/zk-wire-client';
import type { CommandSpec } from '../command-spec.js';
import { isAbort, UsageError } from '../errors.js';

const ADD_WATCH_MODES = {
  PERSISTENT: 'persistent',
  PERSISTENT_RECURSIVE: 'persistent-recursive',
} as const;

const addWatch: CommandSpec = {
  name: 'addWatch',
  args: ['<path>'],
  summary: 'add a persistent watch; its events are printed as they come (server 3.6+)',
  zkCli: 'addWatch [-m mode] path',
  flags: [
    {
      flags: '-m, --mode <mode>',
      description: 'PERSISTENT or PERSISTENT_RECURSIVE (default PERSISTENT_RECURSIVE, as zkCli)',
    },
  ],
  async run(context, [path], flags) {
    const modeName = typeof flags.mode === 'string' ? flags.mode.toUpperCase() : 'PERSISTENT_RECURSIVE';
    const mode = ADD_WATCH_MODES[modeName as keyof typeof ADD_WATCH_MODES];
    if (!mode) throw new UsageError(`-m takes PERSISTENT or PERSISTENT_RECURSIVE, got "${flags.mode}"`);
    await context.client().addWatch(path as string, mode, context.session.printWatchEvent, context.call);
    context.out.result({ path, mode }, () => []);
  },
};

const removewatches: CommandSpec = {
  name: 'removewatches',
  args: ['<path>'],
  summary: 'remove the watches of a path (all types unless a flag says which)',
  zkCli: 'removewatches path [-c|-d|-a] [-l]',
  flags: [
    { flags: '-c, --children', description: 'child watches only' },
    { flags: '-d, --data', description: 'data watches only' },
    { flags: '-a, --any', description: 'every type (the default)' },
    { flags: '-l, --local', description: 'remove them locally even when the server cannot be asked' },
  ],
  async run(context, [path], flags) {
    const type: WatchType = flags.children ? 'children' : flags.data ? 'data' : 'any';
    await context
      .client()
      .removeWatches(path as string, type, { ...context.call, local: Boolean(flags.local) });
    context.out.result({ path, type, removed: true }, () => []);
  },
};

const watch: CommandSpec = {
  name: 'watch',
  args: ['<path>'],
  summary: 'stream the events of a subtree (persistent recursive watch) until Ctrl-C',
  flags: [{ flags: '--no-recursive', description: 'only the node itself (a persistent watch)' }],
  async run(context, [path], flags) {
    const zk = context.client();
    const { colors } = context.out;
    const recursive = flags.recursive !== false;
    context.out.info(colors.dim(`watching ${path}${recursive ? ' and below' : ''}; Ctrl-C to stop`));
    try {
      for await (const event of zk.watchPersistent(path as string, { recursive, signal: context.signal })) {
        const at = new Date().toISOString();
        context.out.result(
          { at, type: event.type, path: event.path },
          () => `${colors.dim(at)} ${colors.cyan(event.type.padEnd(15))} ${event.path}`,
        );
      }
    } catch (error) {
      // Ctrl-C is how this command ends: not an error.
      if (!isAbort(error)) throw error;
    }
  },
};

/** The watch commands. */
export const watchCommands: readonly CommandSpec[] = [addWatch, removewatches, watch];
