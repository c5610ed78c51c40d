/** Options of {@link eventually}; a string is the same as `{ what }`. */
export interface EventuallyOptions {
  /** What the test waits for, named in the error when it never holds (default 'the condition'). */
  what?: string;
  /** How long to keep polling before giving up (default 20 s): a bound on a wait, never a timing assertion. */
  timeoutMs?: number;
  /** The pause between two checks (default 25 ms). */
  intervalMs?: number;
}

/** Thrown by {@link eventually} when its check still fails at the end of its time. */
export class EventuallyTimeoutError extends Error {
  override readonly name = 'EventuallyTimeoutError';
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_INTERVAL_MS = 25;

function checkedDuration(value: number, name: string): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new RangeError(`eventually: ${name} must be a number of milliseconds >= 0, got ${String(value)}`);
  }
  return value;
}

/**
 * Polls `check` until it returns true (a state the test waits for: on a server, in a cache, of a process),
 * then resolves; throws {@link EventuallyTimeoutError} naming `what` when it has not held after `timeoutMs`.
 * An error thrown by `check` ends the wait at once: a check says "not yet" by returning false.
 */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  options: EventuallyOptions | string = {},
): Promise<void> {
  if (typeof check !== 'function') throw new TypeError('eventually: check must be a function');
  const {
    what = 'the condition',
    timeoutMs = DEFAULT_TIMEOUT_MS,
    intervalMs = DEFAULT_INTERVAL_MS,
  } = typeof options === 'string' ? { what: options } : options;
  checkedDuration(timeoutMs, 'timeoutMs');
  checkedDuration(intervalMs, 'intervalMs');
  const deadline = Date.now() + timeoutMs;
  let checks = 0;
  for (;;) {
    checks += 1;
    if (await check()) return;
    if (Date.now() >= deadline) {
      throw new EventuallyTimeoutError(
        `eventually: ${what} did not hold within ${timeoutMs} ms (${checks} checks)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
