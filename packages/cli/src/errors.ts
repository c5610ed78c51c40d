/**
 * Exit codes and the CLI's own errors. Scripts branch on the exit code: 0 ok, 1 a ZooKeeper error (printed in
 * zkCli's words where zkCli has them, see zkcli-errors.ts, else with its code name, e.g. `NONODE`), 2 a usage
 * error (unknown command, bad flag, bad argument).
 */
import { ZooKeeperError } from '@zkwire/zk-wire-client';

/** The process exit codes of `zkwire`. */
export const ExitCode = {
  OK: 0,
  ZOOKEEPER_ERROR: 1,
  USAGE: 2,
} as const;

/** One of {@link ExitCode}'s values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A command line that cannot be run as written (missing argument, bad flag value, no connection). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The session could not be opened. `code` is the cause's ZooKeeper code (`OPERATIONTIMEOUT` when no server
 * answered in time, `AUTHFAILED` for refused SASL credentials, `TLSERROR`, ...), so it is reported like the
 * ZooKeeper error it wraps, with the server named.
 */
export class ConnectFailedError extends Error {
  readonly code: string;
  constructor(server: string, timeoutMs: number, cause: unknown) {
    const code = ZooKeeperError.isInstance(cause) ? cause.code : 'CONNECTIONLOSS';
    const why =
      code === 'OPERATIONTIMEOUT'
        ? `no session within ${timeoutMs} ms (is a server listening there? --connect-timeout to wait longer)`
        : cause instanceof Error
          ? cause.message
          : String(cause);
    super(`cannot connect to ${server}: ${why}`, { cause });
    this.name = 'ConnectFailedError';
    this.code = code;
  }
}

/** How an error thrown by a command is reported: the text to print and the exit code. */
export interface ErrorReport {
  message: string;
  code: string;
  exitCode: ExitCodeValue;
}

/**
 * Turns any error into what the user sees. ZooKeeper errors print their stable code name first, so a script
 * can grep for it; an argument the client refused (`BADARGUMENTS`) is a usage error, as zkCli's
 * MalformedPathException is.
 */
export function reportError(error: unknown): ErrorReport {
  if (error instanceof UsageError) {
    return { message: error.message, code: 'USAGE', exitCode: ExitCode.USAGE };
  }
  if (ZooKeeperError.isInstance(error)) {
    const exitCode = error.code === 'BADARGUMENTS' ? ExitCode.USAGE : ExitCode.ZOOKEEPER_ERROR;
    return { message: `${error.code}: ${error.message}`, code: error.code, exitCode };
  }
  if (isAbort(error)) {
    return { message: 'cancelled', code: 'CANCELLED', exitCode: ExitCode.ZOOKEEPER_ERROR };
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: typeof code === 'string' ? `${code}: ${message}` : message,
    code: typeof code === 'string' ? code : 'ERROR',
    exitCode: ExitCode.ZOOKEEPER_ERROR,
  };
}

/** True for the error an aborted signal rejects with (a DOMException named AbortError, or our reason). */
export function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}
