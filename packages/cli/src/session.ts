/**
 * The state a run of `zkwire` keeps between commands: the client (absent after `close`), the settings to
 * connect again with, the command history, and where watch events and other unprompted output go.
 */
import {
  type ClientOptions,
  createClient,
  type WatchEvent,
  type ZooKeeperClient,
} from '@zkwire/zk-wire-client';
import { type ConnectionSettings, DEFAULT_SERVER } from './connection-options.js';
import { ConnectFailedError, UsageError } from './errors.js';
import type { Output } from './output.js';

/** A command-line session: one client at a time, connected on demand. */
export class CliSession {
  private current: ZooKeeperClient | undefined;
  private currentServer: string;
  /** Commands entered in this session, oldest first (the REPL's `history`). */
  readonly history: string[] = [];
  /** Set by `quit`: the REPL leaves after the command. */
  quitRequested = false;
  /** The REPL stops at the first command that fails (`--stop-on-error`, or `stopOnError on`). */
  stopOnError = false;
  /**
   * Called when the session expires (the client will not reconnect by itself): the REPL hints at `connect`.
   * A one-shot command has nobody to hint to.
   */
  onSessionLost: (() => void) | undefined;
  /**
   * Prints output that arrives between commands (watch events). The REPL replaces it with one that redraws
   * the prompt around the text.
   */
  printAsync: (text: string) => void;

  constructor(
    readonly settings: ConnectionSettings,
    readonly out: Output,
  ) {
    this.currentServer = settings.connectString ?? DEFAULT_SERVER;
    this.printAsync = (text) => out.raw(`${text}\n`);
  }

  /** The connect string in use (or to be used by the next connect). */
  get server(): string {
    return this.currentServer;
  }

  /** The client, when one is open. */
  get client(): ZooKeeperClient | undefined {
    return this.current;
  }

  /** The connected client, or a UsageError when `close` left none. */
  requireClient(): ZooKeeperClient {
    if (!this.current) throw new UsageError('not connected: use connect [host:port]');
    return this.current;
  }

  /**
   * Opens a client to `server` (default: the current one) and waits for its session, closing the previous
   * client first. A failed connection leaves no client, timer or socket behind.
   */
  async connect(server: string = this.currentServer, signal?: AbortSignal): Promise<ZooKeeperClient> {
    await this.close();
    const options: ClientOptions = { ...this.settings.client, connectString: server };
    const client = createClient(options);
    // A watcher that throws is reported by the client as this event; without a listener it would only be a
    // process warning.
    client.on('watcherError', (error: unknown) => this.printAsync(`watcher failed: ${String(error)}`));
    client.on('state', (state) => {
      if (state === 'lost' && this.current === client) this.onSessionLost?.();
    });
    try {
      await client.connected({ timeoutMs: this.settings.connectTimeoutMs, signal });
    } catch (error) {
      await client.close().catch(() => {});
      // An abort (Ctrl-C while connecting) stays an abort; anything else names the server.
      if (signal?.aborted) throw error;
      throw new ConnectFailedError(server, this.settings.connectTimeoutMs, error);
    }
    this.current = client;
    this.currentServer = server;
    return client;
  }

  /** Closes the client (its ephemerals go with it); a no-op without one. */
  async close(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    if (client) await client.close();
  }

  /** A watcher that prints each event as zkCli does (`WATCHER::` then `WatchedEvent ...`). */
  readonly printWatchEvent = (event: WatchEvent): void => {
    if (this.out.json) {
      // Type and path only, as before 3.9 servers sent a zxid with each event (a bigint JSON cannot hold).
      this.printAsync(JSON.stringify({ watchEvent: { type: event.type, path: event.path } }));
      return;
    }
    this.printAsync(`\nWATCHER::\n\nWatchedEvent type:${event.type} path:${event.path}`);
  };
}
