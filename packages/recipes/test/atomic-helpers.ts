/** Shared by the atomic tests: a client whose counter reads are each followed by another session's write. */
import { childrenOf, type TestClient } from './helpers.js';

/** A client wrapper that makes the next optimistic writes of a counter lose, and what it saw meanwhile. */
export interface RacingClient {
  readonly client: TestClient;
  /** For each read of the counter: how many contenders the lock path had then (when `lockPath` was given). */
  readonly lockContendersAtRead: number[];
}

/**
 * Wraps `client` so that the first `losses` reads of `path` are each followed, before the caller sees them, by
 * a write of the same bytes from `other`: the caller's versioned write after that read then fails with
 * BADVERSION, exactly as when a real concurrent writer got in first. Later reads pass through untouched.
 */
export function racingClient(
  client: TestClient,
  other: TestClient,
  path: string,
  losses: number,
  lockPath?: string,
): RacingClient {
  let left = losses;
  const lockContendersAtRead: number[] = [];
  const wrapped = new Proxy(client, {
    get(target, property) {
      if (property === 'getData') {
        return async (p: string, options?: never) => {
          const result = await target.getData(p, options);
          if (p !== path) return result;
          if (lockPath !== undefined) lockContendersAtRead.push((await childrenOf(target, lockPath)).length);
          if (left > 0) {
            left -= 1;
            await other.setData(p, result.data);
          }
          return result;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client: wrapped, lockContendersAtRead };
}
