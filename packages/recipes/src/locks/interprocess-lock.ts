/** The shape every lock shares (Curator's InterProcessLock), so a multi-lock can hold any of them. */
import type { WaitOptions } from '../internal-common/deadline.js';

/** Options of `acquire`: a timeout and an AbortSignal. */
export type AcquireOptions = WaitOptions;

/** A lock across processes. */
export interface InterProcessLock extends AsyncDisposable {
  /**
   * Takes the lock. Resolves true when held, false when `timeoutMs` passed first; rejects with the signal's
   * reason when aborted. Giving up leaves no node behind.
   */
  acquire(options?: AcquireOptions): Promise<boolean>;
  /** Releases one hold; throws NotLockOwnerError when this object does not hold the lock. */
  release(): Promise<void>;
  /** True while this object holds the lock. */
  isAcquiredInThisProcess(): boolean;
}
