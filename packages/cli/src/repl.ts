/**
 * The interactive mode: a node:readline prompt with history (kept across runs), tab completion of commands
 * and znode paths, Ctrl-C to cancel the running command (its AbortSignal reaches the client call) or clear
 * the line, and Ctrl-D (or `quit`) to leave. Lines typed while a command runs wait their turn.
 * With piped input (not a terminal) it reads commands line by line and exits with the last one's code.
 */
import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createCompleter } from './completion.js';
import { ExitCode, type ExitCodeValue, reportError } from './errors.js';
import { appendHistory, HISTORY_SIZE, loadHistory, redactForHistory } from './history-file.js';
import { runCommand } from './run-command.js';
import type { CliSession } from './session.js';
import { tokenize } from './tokenize.js';

/** Where the REPL reads and writes. */
export interface ReplOptions {
  input: Readable;
  output: Writable;
  /** Whether `input` is a terminal (prompts, keys, completion). */
  terminal: boolean;
  historyFile: string | undefined;
}

function promptOf(session: CliSession): string {
  const { colors } = session.out;
  const state = session.client?.state ?? 'closed';
  const shown = state === 'connected' ? colors.green(state) : colors.yellow(state);
  return `${colors.bold('zkwire')} ${session.server} ${shown} ${session.history.length}> `;
}

/** Runs the REPL until Ctrl-D or `quit`; resolves with the exit code of the last command. */
export function runRepl(session: CliSession, options: ReplOptions): Promise<ExitCodeValue> {
  const rl: Interface = createInterface({
    input: options.input,
    output: options.output,
    terminal: options.terminal,
    completer: createCompleter(session),
    history: loadHistory(options.historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    tabSize: 4,
  });
  let running: AbortController | undefined;
  let lastExit: ExitCodeValue = ExitCode.OK;
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
    rl.prompt(true);
  };

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

  const runLine = async (line: string) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const remembered = redactForHistory(trimmed);
    session.history.push(remembered);
    appendHistory(options.historyFile, remembered);
    let argv: string[];
    try {
      argv = tokenize(trimmed);
    } catch (error) {
      const report = reportError(error);
      session.out.error(report.message, report.code);
      lastExit = report.exitCode;
      return;
    }
    running = new AbortController();
    try {
      lastExit = await runCommand(session, argv, { signal: running.signal, autoConnect: false });
    } finally {
      running = undefined;
    }
  };

  // Lines run one after another, in the order typed; `queued` tells when to show the prompt again.
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;

  return new Promise((resolve) => {
    rl.on('line', (line) => {
      queued += 1;
      chain = chain.then(async () => {
        if (!session.quitRequested) await runLine(line);
        queued -= 1;
        if (session.quitRequested) {
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
        resolve(options.terminal ? ExitCode.OK : lastExit);
      });
    });
    prompt();
  });
}
