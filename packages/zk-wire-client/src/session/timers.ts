/**
 * The timing of a session's connection attempts, by Java's ClientCnxn rules (the per-host connect timeout,
 * the pause before a reconnect), and the one-shot timer the session runs them and its client-side expiry
 * on.
 */

/** Java's connectTimeout (T / hosts, here at least 1 s): it bounds the TCP connect, TLS and the answer. */
export function connectTimeoutMs(sessionTimeoutMs: number, hostCount: number): number {
  return Math.max(1000, Math.floor(sessionTimeoutMs / hostCount));
}

/** Java: a random 0-999 ms before each attempt but the first; 1 s more after a full round of hosts. */
export function reconnectDelayMs(fullRound: boolean): number {
  return Math.floor(Math.random() * 1000) + (fullRound ? 1000 : 0);
}

/** A timer that is either pending or not; starting it again replaces the pending run. */
export class SessionTimer {
  private timer: NodeJS.Timeout | undefined;

  /** `keepsProcessAlive`: false for a timer that must not hold the process up on its own. */
  constructor(private readonly keepsProcessAlive: boolean) {}

  get pending(): boolean {
    return this.timer !== undefined;
  }

  start(delayMs: number, run: () => void): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, delayMs);
    if (!this.keepsProcessAlive) this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
