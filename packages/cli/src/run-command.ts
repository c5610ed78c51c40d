/**
 * Runs one command line (already split into arguments) against a session: commander parses it against the
 * command table (unknown commands, missing arguments and bad flags become usage errors, exit code 2), the
 * command runs with a signal that Ctrl-C aborts, and its error, if any, is printed: in zkCli's words for a
 * command of zkCli's when zkCli has words for it (`Node does not exist: /x`), else with its code name.
 */
import { setMaxListeners } from 'node:events';
import { Command, CommanderError } from 'commander';
import type { CommandContext, CommandSpec, Flags } from './command-spec.js';
import { commandTable } from './command-table.js';
import { ExitCode, type ExitCodeValue, reportError } from './errors.js';
import type { Output } from './output.js';
import type { CliSession } from './session.js';
import { zkCliMessage } from './zkcli-errors.js';

/** How a command line is run. */
export interface RunCommandOptions {
  /** Aborts the command (Ctrl-C). */
  signal: AbortSignal;
  /** Connect first when the command needs a connection and there is none (one-shot runs). */
  autoConnect: boolean;
}

/** Builds the commander program of the command table, writing through `out`. */
export function buildCommandProgram(
  out: Output,
  onAction: (spec: CommandSpec, args: string[], flags: Flags) => Promise<void>,
): Command {
  const program = new Command('zkwire')
    .usage('<command> [flags] [args]')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.raw(text),
      writeErr: (text) => out.rawError(text),
    });
  for (const spec of commandTable) {
    const command = program.command(spec.name).description(spec.summary).exitOverride();
    for (const arg of spec.args) command.argument(arg);
    for (const flag of spec.flags ?? []) command.option(flag.flags, flag.description);
    command.option('--json', 'print the result as JSON');
    command.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      await onAction(spec, self.processedArgs as string[], self.opts());
    });
  }
  return program;
}

/** Runs `argv` (`['ls', '-s', '/']`) and returns the exit code; never throws. */
export async function runCommand(
  session: CliSession,
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<ExitCodeValue> {
  let exitCode: ExitCodeValue = ExitCode.OK;
  // tree, locks and queue have many calls in flight on this one signal, each listening for its abort until it
  // settles: not a leak, so no MaxListenersExceededWarning.
  setMaxListeners(0, options.signal);
  const program = buildCommandProgram(session.out, async (spec, args, flags) => {
    const out = session.out.withJson(Boolean(flags.json) || session.out.json);
    try {
      if (spec.needsConnection !== false && !session.client && options.autoConnect) {
        await session.connect(undefined, options.signal);
      }
      const context: CommandContext = {
        session,
        out,
        signal: options.signal,
        call: { signal: options.signal, timeoutMs: session.settings.requestTimeoutMs },
        client: () => session.requireClient(),
      };
      await spec.run(context, args, flags);
    } catch (error) {
      const report = reportError(error);
      const zkCliWords = spec.zkCli !== undefined && !out.json ? zkCliMessage(error) : undefined;
      out.error(zkCliWords ?? report.message, report.code);
      exitCode = report.exitCode;
    }
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help asked for (`help`, `--help`) ends with exit code 0; every other parse error is a usage error.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    const report = reportError(error);
    session.out.error(report.message, report.code);
    return report.exitCode;
  }
  return exitCode;
}
