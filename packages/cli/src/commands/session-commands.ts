/**
 * Commands about the session itself: connect, close, history, quit (zkCli's names), and stopOnError (ours).
 */
import type { CommandSpec } from '../command-spec.js';
import { UsageError } from '../errors.js';
import { hex } from '../stat-format.js';

const connect: CommandSpec = {
  name: 'connect',
  args: ['[server]'],
  summary: 'close the session and open one to host:port[/chroot] (default: the same server)',
  zkCli: 'connect host:port',
  needsConnection: false,
  async run(context, [server]) {
    const zk = await context.session.connect(server, context.signal);
    const sessionId = hex(zk.sessionId);
    context.out.result({ server: context.session.server, sessionId }, () =>
      context.out.colors.green(`Connected to ${context.session.server}, session ${sessionId}`),
    );
  },
};

const close: CommandSpec = {
  name: 'close',
  args: [],
  summary: 'close the session (its ephemeral nodes go with it)',
  zkCli: 'close',
  needsConnection: false,
  async run(context) {
    await context.session.close();
    context.out.result({ closed: true }, () => []);
  },
};

const history: CommandSpec = {
  name: 'history',
  args: [],
  summary: 'the last commands of this session, numbered',
  zkCli: 'history',
  needsConnection: false,
  async run(context) {
    const all = context.session.history;
    const first = Math.max(0, all.length - 20);
    const entries = all.slice(first).map((command, index) => ({ number: first + index, command }));
    context.out.result({ history: entries }, () =>
      entries.map((entry) => `${entry.number} - ${entry.command}`),
    );
  },
};

const quit: CommandSpec = {
  name: 'quit',
  args: [],
  summary: 'leave (Ctrl-D does the same)',
  zkCli: 'quit',
  needsConnection: false,
  async run(context) {
    context.session.quitRequested = true;
  },
};

const stopOnError: CommandSpec = {
  name: 'stopOnError',
  args: ['[setting]'],
  summary: 'on: stop at the first command that fails (as --stop-on-error), off: go on; none: show it',
  needsConnection: false,
  async run(context, [setting]) {
    if (setting !== undefined) {
      if (setting !== 'on' && setting !== 'off') {
        throw new UsageError(`stopOnError takes on or off, not ${JSON.stringify(setting)}`);
      }
      context.session.stopOnError = setting === 'on';
    }
    const on = context.session.stopOnError;
    context.out.result({ stopOnError: on }, () => `stopOnError ${on ? 'on' : 'off'}`);
  },
};

/** The session commands. */
export const sessionCommands: readonly CommandSpec[] = [connect, close, history, quit, stopOnError];
