/**
 * Tab completion for the REPL: command names in first position, a command's flags after `-`, and znode
 * paths (listed from the server) for any word that starts with `/`.
 */
import { commandNames, commandTable } from './command-table.js';
import type { CliSession } from './session.js';

/** How long completion may wait for the server before giving up silently (ms). */
const LIST_TIMEOUT_MS = 2_000;

/** The candidates for the last word of `line`, and that word, as readline's completer returns them. */
export async function complete(session: CliSession, line: string): Promise<[string[], string]> {
  const words = line.trimStart().split(/\s+/);
  const word = words[words.length - 1] ?? '';
  if (words.length <= 1) return [commandNames.filter((name) => name.startsWith(word)), word];
  if (word.startsWith('/')) return [await completePath(session, word), word];
  if (word.startsWith('-')) {
    const spec = commandTable.find((command) => command.name === words[0]);
    const flags = (spec?.flags ?? [])
      .flatMap((flag) => flag.flags.split(/[ ,]+/))
      .filter((part) => part.startsWith('-'));
    return [[...flags, '--json'].filter((flag) => flag.startsWith(word)), word];
  }
  return [[], word];
}

/** Children of the partial path's parent that start with its last segment, as full paths. */
async function completePath(session: CliSession, partial: string): Promise<string[]> {
  const client = session.client;
  if (!client) return [];
  const slash = partial.lastIndexOf('/');
  const parent = slash === 0 ? '/' : partial.slice(0, slash);
  const prefix = partial.slice(slash + 1);
  try {
    const children = await client.getChildren(parent, { timeoutMs: LIST_TIMEOUT_MS });
    const base = parent === '/' ? '/' : `${parent}/`;
    return children
      .filter((name) => name.startsWith(prefix))
      .sort()
      .map((name) => base + name);
  } catch {
    // A parent that does not exist, or a slow server: no candidates rather than an error mid-typing.
    return [];
  }
}

/** The completer function readline takes (callback form, since listing paths is asynchronous). */
export function createCompleter(session: CliSession) {
  return (line: string, callback: (error: null, result: [string[], string]) => void): void => {
    complete(session, line).then(
      (result) => callback(null, result),
      () => callback(null, [[], line]),
    );
  };
}
