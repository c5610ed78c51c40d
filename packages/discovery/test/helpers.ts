/** Helpers of the discovery integration tests: real clients, and expiring a session from outside. */
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

/** `value`, set by a `beforeAll`; throws when read before it ran. */
export function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the server is started in beforeAll');
  return value;
}
