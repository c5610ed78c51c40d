/**
 * `zkwire [global flags] [command [args]]`: the global flags (server, credentials, TLS, output) are read
 * first; a command after them runs once (one-shot, exit code 0/1/2), no command starts the REPL.
 */
import type { Readable, Writable } from 'node:stream';
import { Command, CommanderError, Option } from 'commander';
import { commandTable } from './command-table.js';
import { connectionSettings, ENVIRONMENT, type GlobalFlags } from './connection-options.js';
import { ExitCode, type ExitCodeValue, reportError } from './errors.js';
import { historyFilePath } from './history-file.js';
import { Output } from './output.js';
import { runRepl } from './repl.js';
import { runCommand } from './run-command.js';
import { CliSession } from './session.js';
import { CLI_VERSION } from './version.js';

/** The process around a run: streams and environment (the real ones, or a test's). */
export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  env: Record<string, string | undefined>;
  /** Ctrl-C of a one-shot command (the REPL reads Ctrl-C as a key instead). */
  onInterrupt?: (cancel: () => void) => () => void;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function globalProgram(io: CliIo): Command {
  const program = new Command('zkwire')
    .description(
      'ZooKeeper from the command line: zkCli.sh commands, tab completion, JSON, recipe inspection',
    )
    .usage('[-s host:port[/chroot]] [flags] [command [args]]')
    .enablePositionalOptions()
    .passThroughOptions()
    .argument('[command...]', 'a command to run once; without one, the interactive shell starts')
    .option('-s, --server <connect>', 'connect string host:port[,host:port...][/chroot] (env ZKWIRE_SERVER)')
    .option('--timeout <ms>', 'per-call timeout (default 10000)')
    .option('--connect-timeout <ms>', 'how long to wait for a connection (default 15000)')
    .option('--session-timeout <ms>', 'requested session timeout (default 30000)')
    .option('-r, --read-only', 'accept a read-only server')
    .option(
      '--auth <scheme:credentials>',
      'credentials sent on connecting, repeatable (env ZKWIRE_AUTH)',
      collect,
    )
    .option('--sasl-user <name>', 'SASL user (env ZKWIRE_SASL_USER)')
    .option('--sasl-password <password>', 'SASL password (better: env ZKWIRE_SASL_PASSWORD)')
    .option('--sasl-mechanism <name>', 'SASL mechanism (default DIGEST-MD5)')
    .option('--sasl-service <name>', 'SASL service name (default zookeeper)')
    .option('--sasl-host <name>', 'SASL host name (default zk-sasl-md5)')
    .option('--tls', 'connect with TLS (system CAs unless --tls-ca)')
    .option('--tls-ca <file>', 'CA certificates, PEM (env ZKWIRE_TLS_CA)')
    .option('--tls-cert <file>', 'client certificate, PEM, for x509 identities (env ZKWIRE_TLS_CERT)')
    .option('--tls-key <file>', 'client key, PEM (env ZKWIRE_TLS_KEY)')
    .option('--tls-pfx <file>', 'client PKCS#12 keystore (env ZKWIRE_TLS_PFX)')
    .option('--tls-passphrase <text>', 'key or keystore passphrase (better: env ZKWIRE_TLS_PASSPHRASE)')
    .option('--tls-servername <name>', 'the name the server certificate must have')
    .addOption(new Option('--tls-insecure', 'do not verify the server certificate (test servers only)'))
    .option('--json', 'print results as JSON lines')
    .option('--no-color', 'no colours (also: NO_COLOR, or output that is not a terminal)')
    .option(
      '--stop-on-error',
      'commands from stdin or the shell stop at the first failure, its exit code the exit code (REPL: stopOnError on)',
    )
    .version(CLI_VERSION, '-V, --version', 'print the version of zkwire')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  const commands = commandTable.map(
    (spec) => `  ${spec.name} ${spec.args.join(' ')}`.padEnd(34) + spec.summary,
  );
  const environment = Object.entries(ENVIRONMENT).map(([name, flag]) => `  ${name.padEnd(24)}${flag}`);
  program.addHelpText(
    'after',
    `\nCommands (\`zkwire help <command>\` for its flags; every command takes --json):\n${commands.join('\n')}\n\nEnvironment:\n${environment.join('\n')}\n\nExit codes: 0 ok, 1 ZooKeeper error (zkCli's message, e.g. \`Node does not exist: /x\`, else its code name\nfirst; with --json always the code), 2 usage error. Commands piped to stdin: the code of the first one that\nfailed (0 if none), even when later ones succeed; with --stop-on-error nothing runs after it.\n`,
  );
  return program;
}

/** Runs `zkwire` with `argv` (without node and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<ExitCodeValue> {
  const program = globalProgram(io);
  let parsed: { flags: GlobalFlags; command: string[] };
  try {
    program.parse([...argv], { from: 'user' });
    parsed = { flags: program.opts<GlobalFlags>(), command: program.processedArgs[0] as string[] };
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    throw error;
  }

  const { flags, command } = parsed;
  const useColor = flags.color !== false && io.env.NO_COLOR === undefined && Boolean(io.stdout.isTTY);
  const out = new Output(io.stdout, io.stderr, Boolean(flags.json), useColor);
  let session: CliSession;
  try {
    session = new CliSession(connectionSettings(flags, io.env), out);
  } catch (error) {
    const report = reportError(error);
    out.error(report.message, report.code);
    return report.exitCode;
  }

  if (command.length > 0) return oneShot(session, command, io);
  session.stopOnError = Boolean(flags.stopOnError);

  const terminal = Boolean(io.stdin.isTTY && io.stdout.isTTY);
  try {
    await session.connect();
    if (terminal)
      out.info(
        out.colors.dim(`connected to ${session.server}; Tab completes, Ctrl-C cancels, Ctrl-D leaves`),
      );
  } catch (error) {
    // zkCli starts anyway: `connect` can be typed at the prompt.
    const report = reportError(error);
    out.error(report.message, report.code);
    if (!terminal) return report.exitCode;
  }
  return runRepl(session, {
    input: io.stdin,
    output: io.stdout,
    terminal,
    historyFile: historyFilePath(io.env),
  });
}

async function oneShot(session: CliSession, command: string[], io: CliIo): Promise<ExitCodeValue> {
  const controller = new AbortController();
  const stopListening = io.onInterrupt?.(() => controller.abort()) ?? (() => {});
  try {
    return await runCommand(session, command, { signal: controller.signal, autoConnect: true });
  } finally {
    stopListening();
    await session.close().catch(() => {});
  }
}
