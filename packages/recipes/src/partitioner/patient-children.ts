/**
 * kazoo's `PatientChildrenWatch`: the party's members once they have not changed for a whole time boundary,
 * with a flag raised by the next change after that (the watch armed by the read that settled).
 */
import { sleep } from '@zkwire/common';
import type { Deadline } from '../internal-common/deadline.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isRetryable } from '../internal-common/zk-errors.js';
import type { ShallowParty } from './shallow-party.js';

/** A change noticed after the members settled. */
export class ChangeFlag {
  #set = false;
  #listeners: (() => void)[] = [];

  get isSet(): boolean {
    return this.#set;
  }

  set(): void {
    if (this.#set) return;
    this.#set = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }

  /** Calls `listener` once, when the flag is set (now, if it is already). */
  onSet(listener: () => void): void {
    if (this.#set) listener();
    else this.#listeners.push(listener);
  }
}

/** The settled member node names, and the flag of the change after. */
export interface SettledMembers {
  children: string[];
  changed: ChangeFlag;
}

/**
 * Reads the members with a watch, waits `timeBoundaryMs`, and reads again while the watch fired in between.
 * Connection problems are ridden out (kazoo's `client.retry`) until the deadline or abort.
 */
export async function settledMembers(
  client: RecipeClient,
  party: ShallowParty,
  timeBoundaryMs: number,
  deadline: Deadline,
): Promise<SettledMembers> {
  for (;;) {
    const changed = new ChangeFlag();
    let children: string[];
    try {
      children = await deadline.guard(party.children(() => changed.set()));
    } catch (error) {
      if (!isRetryable(error)) throw error;
      await deadline.guard(client.connected());
      continue;
    }
    // The timer goes with the deadline's signal, so an abort (finish) leaves none behind.
    await deadline.guard(sleep(timeBoundaryMs, { signal: deadline.signal }));
    if (!changed.isSet) return { children, changed };
  }
}
