/*
 * Helpers shared by the security-*.test.ts files: capturing what the client writes to the console, and
 * checking a rejection's error without letting secrets through.
 */

import { expect } from 'vitest';

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to be refused, but it succeeded');
}

/** Everything an error shows: message, stack, JSON form and the same for its causes. */
export function everythingShown(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    parts.push(String(current), (current as Error).stack ?? '');
    try {
      parts.push(JSON.stringify(current));
    } catch {
      // circular: the other forms suffice
    }
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join('\n');
}

/** Asserts that none of `secrets` shows up in `text`. */
export function expectNoSecrets(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) expect(text, 'a credential leaked').not.toContain(secret);
}

/**
 * Captures console output and process warnings while `run` runs, so a test can show that the client logged
 * no credential. Returns what was written.
 */
export async function captureOutput(run: () => Promise<void>): Promise<string> {
  const written: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const saved = methods.map((name) => console[name]);
  for (const name of methods) {
    console[name] = (...args: unknown[]) => {
      written.push(args.map(String).join(' '));
    };
  }
  const onWarning = (warning: Error) => written.push(String(warning));
  process.on('warning', onWarning);
  const stderrWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(String(chunk));
    return (stderrWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    await run();
  } finally {
    methods.forEach((name, i) => {
      console[name] = saved[i]!;
    });
    process.off('warning', onWarning);
    process.stderr.write = stderrWrite;
  }
  return written.join('\n');
}
