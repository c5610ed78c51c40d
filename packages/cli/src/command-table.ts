/**
 * Every command, by name: zkCli's (same names and flags) and ours (tree, watch, locks, leader, queue,
 * services).
 */
import type { CommandSpec } from './command-spec.js';
import { leaderCommands } from './commands/leader-command.js';
import { lockCommands } from './commands/locks-command.js';
import { queueCommands } from './commands/queue-command.js';
import { readCommands } from './commands/read-commands.js';
import { servicesCommands } from './commands/services-command.js';
import { sessionCommands } from './commands/session-commands.js';
import { treeCommands } from './commands/tree-command.js';
import { watchCommands } from './commands/watch-commands.js';
import { writeCommands } from './commands/write-commands.js';

/** All commands, in the order `help` lists them. */
export const commandTable: readonly CommandSpec[] = [
  ...readCommands,
  ...writeCommands,
  ...watchCommands,
  ...treeCommands,
  ...lockCommands,
  ...leaderCommands,
  ...queueCommands,
  ...servicesCommands,
  ...sessionCommands,
];

/** The command names, for completion (plus commander's `help`). */
export const commandNames: readonly string[] = [...commandTable.map((spec) => spec.name), 'help'];
