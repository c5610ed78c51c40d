/**
 * The "lost" signal of a hold (a lock, a lease): Curator leaves a holder to watch connection states itself
 * (curator/locks.md §2.6, §13.3); we raise it for the holder. A hold is reported lost, once, when the
 * connection is suspended (the default, like Curator's StandardConnectionStateErrorPolicy) or only when the
 * session is lost (`lostOn: 'lost'`, like SessionConnectionStateErrorPolicy), or when its node is deleted by
 * someone else.
 */
import { publishHold } from './diagnostics.js';
import { RecipeError, RecipeErrorCode } from './recipe-errors.js';
import type { RecipeClient } from './zk-client.js';
import { onClientState } from './zk-client.js';

/** Why a hold may be gone. */
export const LostReason = {
  /** The connection dropped: the session may expire before it comes back. */
  SUSPENDED: 'suspended',
  /** The session expired: the node is gone. */
  LOST: 'lost',
  /** The node was deleted by someone else while held. */
  DELETED: 'deleted',
} as const;

/** One of {@link LostReason}. */
export type LostReason = (typeof LostReason)[keyof typeof LostReason];

/** Which connection state counts as losing a hold. */
export type LostPolicy = 'suspended' | 'lost';

/** What the 'lost' event and the abort reason carry. */
export interface LostEvent {
  reason: LostReason;
  /** The node of the hold that may be gone. */
  path: string;
}

/** The error a hold's `lostSignal` (or a latch's `leadershipSignal`) is aborted with; code HOLD_LOST. */
export class HoldLostError extends RecipeError {
  /** Why the hold may be gone. */
  readonly reason: LostReason;
  /** The node of the hold. */
  readonly path: string;

  constructor(event: LostEvent) {
    super(RecipeErrorCode.HOLD_LOST, `The hold on ${event.path} may be lost (${event.reason})`);
    this.name = 'HoldLostError';
    this.reason = event.reason;
    this.path = event.path;
  }
}

/** Watches one held node and the client's connection, and reports the hold lost once. */
export class HoldMonitor {
  readonly #controller = new AbortController();
  readonly #client: RecipeClient;
  readonly #path: string;
  readonly #policy: LostPolicy;
  readonly #onLost: (event: LostEvent) => void;
  #unsubscribe: (() => void) | undefined;
  #stopped = false;
  readonly #kind: 'lock' | 'lease';
  #heldSince = 0;

  /**
   * `kind` and `waitMs` describe the hold for the diagnostics channel (acquired when started, released when
   * stopped, lost when fired).
   */
  constructor(
    client: RecipeClient,
    path: string,
    policy: LostPolicy,
    onLost: (event: LostEvent) => void,
    describe: { kind: 'lock' | 'lease'; waitMs: number } = { kind: 'lock', waitMs: 0 },
  ) {
    this.#client = client;
    this.#path = path;
    this.#policy = policy;
    this.#onLost = onLost;
    this.#kind = describe.kind;
    this.#heldSince = performance.now();
    publishHold(() => ({ event: 'acquired', kind: this.#kind, path, waitMs: describe.waitMs }));
  }

  /** Aborted (with a HoldLostError) when the hold may be gone. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Starts watching: connection states, and an exists-watch on the node itself. */
  start(): void {
    this.#unsubscribe = onClientState(this.#client, (state) => {
      if (state === 'lost') this.#fire(LostReason.LOST);
      else if (state === 'suspended' && this.#policy === 'suspended') this.#fire(LostReason.SUSPENDED);
    });
    // The connection may have changed between the read that granted the hold and this subscription.
    if (this.#client.state === 'expired') this.#fire(LostReason.LOST);
    else if (this.#client.state === 'suspended' && this.#policy === 'suspended')
      this.#fire(LostReason.SUSPENDED);
    this.#client
      .exists(this.#path, {
        watch: (event) => {
          if (event.type === 'deleted') this.#fire(LostReason.DELETED);
        },
      })
      .then(
        (stat) => {
          if (stat === null) this.#fire(LostReason.DELETED);
        },
        // A failed check means a connection problem, which the state listener reports.
        () => {},
      );
  }

  /** Stops watching; called on release, before our own delete, so that delete is not reported. */
  stop(): void {
    if (!this.#stopped) {
      const heldMs = performance.now() - this.#heldSince;
      publishHold(() => ({ event: 'released', kind: this.#kind, path: this.#path, heldMs }));
    }
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #fire(reason: LostReason): void {
    if (this.#stopped || this.#controller.signal.aborted) return;
    const event = { reason, path: this.#path };
    const heldMs = performance.now() - this.#heldSince;
    publishHold(() => ({ event: 'lost', kind: this.#kind, path: this.#path, heldMs, reason }));
    this.#controller.abort(new HoldLostError(event));
    this.#onLost(event);
  }
}
