/**
 * `@zkwire/cli`: the `zkwire` command line. The package is mostly its executable; these exports let a
 * program run it (`main`) or reuse its pieces (the command table, data and ACL formatting).
 * @packageDocumentation
 */
export { aclLines, aclToJson, parseAclText } from './acl-text.js';
export { type CliIo, main } from './cli.js';
export type { CommandContext, CommandSpec, FlagSpec, Flags } from './command-spec.js';
export { commandNames, commandTable } from './command-table.js';
export { electionRecipeOf, type LeaderReport, type ParticipantView } from './commands/leader-command.js';
export { type LockKind, type LockReport, lockKindOf } from './commands/locks-command.js';
export {
  consumptionOrder,
  QUEUE_KINDS,
  type QueueEntry,
  type QueueKind,
  type QueueReport,
  queueKindOf,
} from './commands/queue-command.js';
export type { TreeNode } from './commands/tree-command.js';
export { createModeOf } from './commands/write-commands.js';
export { complete } from './completion.js';
export {
  type ConnectionSettings,
  connectionSettings,
  DEFAULT_SERVER,
  ENVIRONMENT,
  type GlobalFlags,
} from './connection-options.js';
export { dataAsText, parseDataArgument, type ShownData, showData } from './data-format.js';
export { ConnectFailedError, ExitCode, type ExitCodeValue, reportError, UsageError } from './errors.js';
export { Output, toJson } from './output.js';
export { runCommand } from './run-command.js';
export { CliSession } from './session.js';
export { statLines, statToJson } from './stat-format.js';
export { tokenize } from './tokenize.js';
