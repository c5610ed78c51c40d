/**
 * The REPL's history file: one command a line, newest last, kept to the last 1,000. Credentials typed with
 * `addauth` are replaced by `***` before anything is kept, in the file or in `history`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** How many commands are loaded back into the REPL. */
export const HISTORY_SIZE = 1_000;

/** The history file: ZKWIRE_HISTORY (empty: none), else ~/.zkwire_history. */
export function historyFilePath(env: Record<string, string | undefined>): string | undefined {
  if (env.ZKWIRE_HISTORY !== undefined) return env.ZKWIRE_HISTORY === '' ? undefined : env.ZKWIRE_HISTORY;
  return join(homedir(), '.zkwire_history');
}

/** A command line as it may be remembered: addauth's credentials masked. */
export function redactForHistory(line: string): string {
  const match = /^(\s*addauth\s+\S+)\s+\S.*$/.exec(line);
  return match ? `${match[1]} ***` : line;
}

/** The saved commands, newest first (readline's order); [] when there is no file yet. */
export function loadHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Appends one command; a history file that cannot be written is not worth failing a command for. */
export function appendHistory(file: string | undefined, line: string): void {
  if (!file) return;
  try {
    appendFileSync(file, `${line}\n`, { mode: 0o600 });
  } catch {
    // read-only home, full disk: the session goes on without a saved history
  }
}
