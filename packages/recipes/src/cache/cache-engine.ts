/** What the public cache asks of an engine (the persistent-watch one, or the one-shot-watch one). */
export interface CacheEngineDriver {
  /** Which engine this is. */
  readonly kind: 'persistent-watch' | 'one-shot-watches';
  /** Places the watch(es) and starts the initial load. Rejects when the server cannot host this engine. */
  start(): Promise<void>;
  /**
   * The client is connected again: re-place what the server no longer holds (everything, after a session
   * expiry) and re-read the tree, so that what changed meanwhile is fetched.
   */
  resync(sessionLost: boolean): void;
  /** Removes every watch this engine placed (on the server, or locally when disconnected). */
  close(): Promise<void>;
}
