/**
 * The shape of one command of the table: its name and arguments as commander reads them, its flags, and
 * the function that runs it. Each command family lives in its own file under `commands/` and exports a list
 * of these; `command-table.ts` puts them together.
 */
import type { CallOptions, ZooKeeperClient } from '@zkwire/zk-wire-client';
import type { Output } from './output.js';
import type { CliSession } from './session.js';

/** A flag of a command, in commander's syntax (`-v, --version <version>`). */
export interface FlagSpec {
  flags: string;
  description: string;
}

/** What a running command gets. */
export interface CommandContext {
  session: CliSession;
  out: Output;
  /** Aborted by Ctrl-C: pass it (through `call`) to every client call. */
  signal: AbortSignal;
  /** `{ signal, timeoutMs }` for client calls. */
  call: CallOptions;
  /** The connected client (a UsageError when there is none). */
  client(): ZooKeeperClient;
}

/** Parsed flags, keyed by commander's camel-cased long names. */
export type Flags = Record<string, unknown>;

/** One command. */
export interface CommandSpec {
  name: string;
  /** Positional arguments in commander's syntax: `<path>`, `[data]`. */
  args: readonly string[];
  summary: string;
  flags?: readonly FlagSpec[];
  /** False for commands that work without a connection (history, quit, connect, close). Default true. */
  needsConnection?: boolean;
  /** The zkCli command it matches, for the README's table; undefined when it is ours alone. */
  zkCli?: string;
  run(context: CommandContext, args: string[], flags: Flags): Promise<void>;
}
