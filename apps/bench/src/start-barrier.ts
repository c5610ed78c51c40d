/**
 * Holds the workers of a turn case until every one of them is ready (connected, its loop built), then gives
 * them one start time. Without it the schedule had to start a fixed time after the workers were spawned,
 * and a worker that took longer to start (a JVM, tsx under CI load) slept through all its turns.
 */
export class StartBarrier {
  private readonly waiting: Array<(startAt: number) => void> = [];
  private startAt: number | undefined;

  /** `expected` workers will arrive or withdraw; the first turn starts `marginMs` after the last arrives. */
  constructor(
    private expected: number,
    private readonly marginMs: number,
  ) {}

  /** A worker is ready: resolves with the shared start time (epoch ms) once every worker is. */
  arrive(): Promise<number> {
    if (this.startAt !== undefined) return Promise.resolve(this.startAt);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.releaseIfAll();
    });
  }

  /** A worker ended (or was given up) without arriving: the others stop waiting for it. */
  withdraw(): void {
    this.expected--;
    this.releaseIfAll();
  }

  private releaseIfAll(): void {
    if (this.startAt !== undefined || this.waiting.length === 0 || this.waiting.length < this.expected)
      return;
    const startAt = Date.now() + this.marginMs;
    this.startAt = startAt;
    for (const resolve of this.waiting.splice(0)) resolve(startAt);
  }
}
