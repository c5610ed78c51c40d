/**
 * Curator's DownInstancePolicy and DownInstanceManager: `noteError(instance)` counts errors per instance; once
 * an instance's count reaches the threshold it is left out of the provider's list until its record expires.
 * A record starts at the first error and lasts `timeoutMs`; expired records are purged lazily (at most once
 * per `timeoutMs / 2`, when an error is noted or the list is filtered), so an instance stays out for between
 * 1× and 1.5× the timeout, as in Curator 5.4. Records are keyed by every field of the instance, so an instance
 * that changed starts clean.
 */
import { instanceKey, type ServiceInstance } from './service-instance.js';
import { validateDuration, validatePositiveInteger } from './validate.js';

/** When an instance counts as down. */
export interface DownInstancePolicy {
  /** How long an instance's error record lasts (default 30000 ms). */
  timeoutMs?: number;
  /** Errors within a record that make the instance down (default 2). */
  errorThreshold?: number;
}

/** Curator's defaults. */
export const DEFAULT_DOWN_INSTANCE_POLICY = { timeoutMs: 30_000, errorThreshold: 2 } as const;

interface ErrorRecord {
  readonly startMs: number;
  count: number;
}

/** The error records of one provider. */
export class DownInstances {
  readonly timeoutMs: number;
  readonly errorThreshold: number;
  readonly #records = new Map<string, ErrorRecord>();
  readonly #now: () => number;
  #lastPurgeMs: number;

  /** `now` is the clock (default Date.now; a test may drive it). */
  constructor(policy: DownInstancePolicy = {}, now: () => number = Date.now) {
    this.timeoutMs = validateDuration(
      policy.timeoutMs ?? DEFAULT_DOWN_INSTANCE_POLICY.timeoutMs,
      'timeoutMs',
    );
    this.errorThreshold = validatePositiveInteger(
      policy.errorThreshold ?? DEFAULT_DOWN_INSTANCE_POLICY.errorThreshold,
      'errorThreshold',
    );
    this.#now = now;
    this.#lastPurgeMs = now();
  }

  /** One more error for `instance`. */
  add(instance: ServiceInstance): void {
    this.#purge();
    const key = instanceKey(instance);
    const record = this.#records.get(key) ?? { startMs: this.#now(), count: 0 };
    record.count += 1;
    this.#records.set(key, record);
  }

  /** True when `instance` is not down. */
  isUp(instance: ServiceInstance): boolean {
    this.#purge();
    const record = this.#records.get(instanceKey(instance));
    return record === undefined || record.count < this.errorThreshold;
  }

  /** Instances with a record now (down or not yet). */
  get size(): number {
    return this.#records.size;
  }

  #purge(): void {
    const now = this.#now();
    if (now - this.#lastPurgeMs < this.timeoutMs / 2) return;
    this.#lastPurgeMs = now;
    for (const [key, record] of this.#records) {
      if (now - record.startMs >= this.timeoutMs) this.#records.delete(key);
    }
  }
}
