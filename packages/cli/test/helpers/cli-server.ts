/**
 * One real ZooKeeper server and one built `zkwire` per test file, and a client of the test's own to set
 * things up and check what the CLI did.
 */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';
import { buildCli, type CliBundle, type CliRun, runCli } from './cli-bundle.js';

/** What {@link useCliServer} gives a test file (read inside tests, once beforeAll ran). */
export interface CliServer {
  readonly server: ZooKeeperServer;
  readonly bundle: CliBundle;
  /** A client of the test itself. */
  readonly zk: ZooKeeperClient;
  /** Runs `zkwire -s <server> ...args`. */
  run(args: readonly string[], options?: { env?: Record<string, string>; input?: string }): Promise<CliRun>;
}

/**
 * Starts the server (TTL nodes enabled) and builds the CLI in parallel; stops and removes both afterwards.
 * With `enabled: false` (a file whose tests are all skipped) nothing is started.
 */
export function useCliServer(options: { enabled?: boolean } = {}): CliServer {
  let server: ZooKeeperServer | undefined;
  let bundle: CliBundle | undefined;
  let zk: ZooKeeperClient | undefined;
  beforeAll(async () => {
    if (options.enabled === false) return;
    [server, bundle] = await Promise.all([
      startZooKeeper({ jvmFlags: ['-Dzookeeper.extendedTypesEnabled=true'] }),
      buildCli(),
    ]);
    zk = await connect({ connectString: server.connectString });
  });
  afterAll(async () => {
    await zk?.close().catch(() => {});
    await server?.[Symbol.asyncDispose]();
    bundle?.remove();
  });
  return {
    get server() {
      return server as ZooKeeperServer;
    },
    get bundle() {
      return bundle as CliBundle;
    },
    get zk() {
      return zk as ZooKeeperClient;
    },
    run(args, options) {
      return runCli(bundle as CliBundle, ['-s', (server as ZooKeeperServer).connectString, ...args], options);
    },
  };
}
