/** The ways to make a client: {@link createClient}, and {@link connect}, which also waits for the connection. */
import type { CallOptions, ClientOptions } from '../util/types.js';
import { ZooKeeperClient } from './client.js';

/** Creates a client; it starts connecting at once. */
export function createClient(options: ClientOptions): ZooKeeperClient {
  return new ZooKeeperClient(options);
}

/** Creates a client and resolves once it is connected (`callOptions` bound the wait). */
export async function connect(options: ClientOptions, callOptions?: CallOptions): Promise<ZooKeeperClient> {
  const client = new ZooKeeperClient(options);
  try {
    await client.connected(callOptions);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}
