/** Helpers of the discovery integration tests: real clients and a polling wait. */
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';

/** Connects a new client (its own connection and session). */
export function openClient(
  connectString: string,
  options: { sessionTimeoutMs?: number; autoRecreateSession?: boolean } = {},
): Promise<ZooKeeperClient> {
  return connect({ connectString, sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000, ...options });
}

/** Expires `client`'s session from outside: a second connection attaches to it and closes it. */
export async function expireSession(connectString: string, client: ZooKeeperClient): Promise<void> {
  await expireSessionById(connectString, client.sessionId, client.sessionPassword);
}

/** Expires any session (a Java one, say) by id and password. */
export async function expireSessionById(
  connectString: string,
  id: bigint,
  password: Uint8Array,
): Promise<void> {
  const thief = await connect({ connectString, session: { id, password: Buffer.from(password) } });
  await thief.close();
}

/** Polls `check` until it is true (a state the test waits for on the server); fails after `attempts` tries. */
export async function eventually(check: () => Promise<boolean> | boolean, attempts = 600): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached');
}

/** Waits for the next value of an emitter's event. */
export function nextEvent<T extends unknown[]>(
  emitter: { once(event: string, listener: (...args: T) => void): unknown },
  event: string,
): Promise<T> {
  return new Promise((resolve) => emitter.once(event, (...args: T) => resolve(args)));
}
