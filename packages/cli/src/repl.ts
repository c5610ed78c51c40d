/**
 * The interactive mode: a node:readline prompt with history (kept across runs), tab completion of commands
 * and znode paths, Ctrl-C to cancel the running command (its AbortSignal reaches the client call) or clear
 * the line, and Ctrl-D (or `quit`) to leave. Lines typed while a command runs wait their turn.
 * With piped input (not a terminal) it reads commands line by line and exits with the code of the first one
 * that failed (0 if none). With stop-on-error (`--stop-on-error`, `stopOnError on`) it stops at that command,
 * at a terminal too (as `set -e` does in a shell), and exits with its code.
 */
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createCompleter } from './completion.js';
import { ExitCode, type ExitCodeValue, reportError } from './errors.js';
import { appendHistory, HISTORY_SIZE, loadHistory, redactForHistory } from './history-file.js';
import { runCommand } from './run-command.js';
import type { CliSession } from './session.js';
import { TabKeyGuard } from './tab-key.js';
import { tokenize } from './tokenize.js';

/** Where the REPL reads and writes. */
export interface ReplOptions {
  input: Readable;
  output: Writable;
  /** Whether `input` is a terminal (prompts, keys, completion). */
  terminal: boolean;
  historyFile: string | undefined;
}

/** What an expired session leaves to do: the client does not open a new session by itself. */
export const SESSION_LOST_HINT =
  'session expired: its ephemeral nodes and watches are gone; type connect to open a new session';

function promptOf(session: CliSession): string {
  const { colors } = session.out;
  const state = session.client?.state ?? 'closed';
  const shown = state === 'connected' ? colors.green(state) : colors.yellow(state);
  return `${colors.bold('zkwire')} ${session.server} ${shown} ${session.history.length}> `;
}

/**
 * Runs the REPL until Ctrl-D, `quit`, the end of piped input or a failure under stop-on-error; resolves with
 * the exit code (see the file's comment).
 */
export function runRepl(session: CliSession, options: ReplOptions): Promise<ExitCodeValue> {
  const tabKey = new TabKeyGuard();
  const rl: Interface = createInterface({
    input: options.input,
    output: options.output,
    terminal: options.terminal,
    completer: tabKey.wrap(createCompleter(session)),
    history: loadHistory(options.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    tabSize: 4,
  });
  if (options.terminal) tabKey.attach(options.input, rl);
  let running: AbortController | undefined;
  /** The code of the first command that failed. */
  let firstFailure: ExitCodeValue | undefined;
  /** Set when stop-on-error ended the run: the REPL leaves with this command's code. */
  let stoppedBy: ExitCodeValue | undefined;
  let closed = false;

  // Piped input gets no prompts: its output is for a script to read.
  const prompt = () => {
    if (closed || !options.terminal) return;
    rl.setPrompt(promptOf(session));
    rl.prompt();
  };

  // Watch events arrive between commands: print them above the prompt, then redraw it with what was typed.
  session.printAsync = (text) => {
    if (running || !options.terminal) {
      options.output.write(`${text}\n`);
      return;
    }
    clearLine(options.output, 0);
    cursorTo(options.output, 0);
    options.output.write(`${text}\n`);
    // Drawn anew, not as it was: the event may have come with a change of state (an expiry).
    rl.setPrompt(promptOf(session));
    rl.prompt(true);
  };
  // What to do after an expiry: said when the client reports it (above the prompt) and after each command
  // that failed on the expired session (below its error). With piped input on stderr, so that a script reading
  // the commands' output does not get it.
  const hintAtConnect = (whenAsync: boolean) => {
    if (!options.terminal) session.out.error(SESSION_LOST_HINT, 'SESSIONEXPIRED');
    else if (whenAsync) session.printAsync(session.out.colors.yellow(SESSION_LOST_HINT));
    else session.out.info(session.out.colors.yellow(SESSION_LOST_HINT));
  };
  session.onSessionLost = () => hintAtConnect(true);

  rl.on('SIGINT', () => {
    if (running) {
      running.abort();
      return;
    }
    // At the prompt, Ctrl-C drops the line being typed (as a shell does) instead of leaving.
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    options.output.write('^C\n');
    prompt();
  });

  /** Runs one line; resolves with its exit code. */
  const execute = async (line: string): Promise<ExitCodeValue> => {
    let argv: string[];
    try {
      argv = tokenize(line);
    } catch (error) {
      const report = reportError(error);
      session.out.error(report.message, report.code);
      return report.exitCode;
    }
    running = new AbortController();
    try {
      return await runCommand(session, argv, { signal: running.signal, autoConnect: false });
    } finally {
      running = undefined;
    }
  };

  const runLine = async (line: string) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const remembered = redactForHistory(trimmed);
    session.history.push(remembered);
    appendHistory(options.historyFile, remembered);
    const exitCode = await execute(trimmed);
    if (exitCode === ExitCode.OK) return;
    firstFailure ??= exitCode;
    // A command that failed on the expired session (the hint may have scrolled away): say it again.
    if (session.client?.state === 'expired') hintAtConnect(false);
    if (session.stopOnError) stoppedBy = exitCode;
  };

  // Lines run one after another, in the order typed; `queued` tells when to show the prompt again.
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;

  return new Promise((resolve) => {
    rl.on('line', (line) => {
      queued += 1;
      chain = chain.then(async () => {
        const leaving = () => session.quitRequested || stoppedBy !== undefined;
        if (!leaving()) await runLine(line);
        queued -= 1;
        if (leaving()) {
          if (!closed) rl.close();
        } else if (queued === 0) prompt();
      });
    });
    rl.on('close', () => {
      closed = true;
      // Ctrl-D at a terminal also cancels a running command; piped input that ended lets its lines finish.
      if (options.terminal) running?.abort();
      void chain.then(async () => {
        if (options.terminal) options.output.write('\n');
        await session.close().catch(() => {});
        session.onSessionLost = undefined;
        if (stoppedBy !== undefined) resolve(stoppedBy);
        else resolve(options.terminal ? ExitCode.OK : (firstFailure ?? ExitCode.OK));
      });
    });
    prompt();
  });
}
