/**
 * Helpers of the hostile-server tests: outcome recording for calls that must settle exactly once, and a
 * bound on a wait that must end (a liveness check: a call that hangs forever fails the test instead of
 * timing the test file out).
 */

/** How a call ended, or that it has not yet. */
export type Outcome = { settled: false } | { settled: true; ok: boolean; value?: unknown; error?: unknown };

/** Watches a call: counts its settlements (a promise settles at most once; this checks at least once). */
export class Tracked {
  settlements = 0;
  outcome: Outcome = { settled: false };
  constructor(readonly promise: Promise<unknown>) {
    promise.then(
      (value) => {
        this.settlements++;
        this.outcome = { settled: true, ok: true, value };
      },
      (error: unknown) => {
        this.settlements++;
        this.outcome = { settled: true, ok: false, error };
      },
    );
  }
}

/** Resolves true when `promise` settles within `ms`, false otherwise (it is left to settle later). */
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}

/** Resolves once every tracked call settled, or after `ms`; returns those still pending. */
export async function pendingAfter(calls: Tracked[], ms: number): Promise<Tracked[]> {
  await settlesWithin(Promise.allSettled(calls.map((c) => c.promise)), ms);
  return calls.filter((c) => !c.outcome.settled);
}

/** Sleeps. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
