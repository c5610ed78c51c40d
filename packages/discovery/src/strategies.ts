/**
 * Curator's ProviderStrategy implementations: how a ServiceProvider picks one instance from the list it has
 * (already filtered: enabled, not down, the caller's filters).
 */
import { instanceKey, type ServiceInstance } from './service-instance.js';

/** Picks one of `instances` (never empty), or undefined. */
export interface ProviderStrategy {
  getInstance(instances: readonly ServiceInstance[]): ServiceInstance | undefined;
}

/**
 * RoundRobinStrategy (Curator's default): one counter per strategy, `abs(counter++) % size`. The counter is a
 * 32-bit integer as in Java, but kept non-negative here (Curator's `abs(Integer.MIN_VALUE)` fails once after
 * 2^31 picks).
 */
export class RoundRobinStrategy implements ProviderStrategy {
  #counter = 0;

  getInstance(instances: readonly ServiceInstance[]): ServiceInstance | undefined {
    if (instances.length === 0) return undefined;
    const index = this.#counter % instances.length;
    this.#counter = (this.#counter + 1) % 2 ** 31;
    return instances[index];
  }
}

/** RandomStrategy: uniform. `random` returns a number in [0, 1) (default Math.random; a test may seed it). */
export class RandomStrategy implements ProviderStrategy {
  readonly #random: () => number;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  getInstance(instances: readonly ServiceInstance[]): ServiceInstance | undefined {
    if (instances.length === 0) return undefined;
    return instances[Math.min(instances.length - 1, Math.floor(this.#random() * instances.length))];
  }
}

/**
 * StickyStrategy: keeps returning the same instance while the list still holds an equal one (every field
 * equal, as Curator's `equals`); otherwise asks the `master` strategy for a new one. `instanceNumber` counts
 * the switches.
 */
export class StickyStrategy implements ProviderStrategy {
  readonly #master: ProviderStrategy;
  #ours: ServiceInstance | undefined;
  #instanceNumber = 0;

  constructor(master: ProviderStrategy = new RoundRobinStrategy()) {
    this.#master = master;
  }

  /** How many times a new instance was chosen. */
  get instanceNumber(): number {
    return this.#instanceNumber;
  }

  getInstance(instances: readonly ServiceInstance[]): ServiceInstance | undefined {
    const ours = this.#ours;
    if (ours !== undefined) {
      const key = instanceKey(ours);
      if (instances.some((instance) => instanceKey(instance) === key)) return ours;
      this.#ours = undefined;
    }
    const chosen = this.#master.getInstance(instances);
    if (chosen !== undefined) {
      this.#ours = chosen;
      this.#instanceNumber += 1;
    }
    return chosen;
  }
}
