/**
 * LeaderSelector (Curator's `leader.LeaderSelector`, curator/leader.md §7.2): leadership is holding an
 * InterProcessMutex on the election path (nodes `_c_<uuid>-lock-<seq>`, data the id in UTF-8, or the local
 * address when there is no id, as in Curator). The leader runs `takeLeadership`; when it settles, the mutex is
 * released and the next contender leads. With `autoRequeue` the selector stands again after each term.
 *
 * `takeLeadership` is an async function that receives an AbortSignal: it is aborted when the connection is
 * suspended or the session lost (Curator's CancelLeadershipException), on `interruptLeadership()` and on
 * `close()`. The function must stop its work when it aborts; `close()` waits for it to settle, so that two
 * leaders never run at once in this process.
 */
import { EventEmitter } from 'node:events';
import { sleep } from '../internal-common/deadline.js';
import { publishLeadership } from '../internal-common/diagnostics.js';
import type { FencedWriter } from '../internal-common/fenced-writer.js';
import type { LostEvent, LostPolicy } from '../internal-common/hold-monitor.js';
import { IllegalRecipeStateError, InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { Reporter } from '../internal-common/safe-emit.js';
import { validateRecipePath } from '../internal-common/validate.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { isClientClosed, isRetryable, isSessionExpired } from '../internal-common/zk-errors.js';
import { InterProcessMutex, MUTEX_LOCK_NAME } from '../locks/interprocess-mutex.js';
import { type Participant, readLeader, readParticipants } from './participants.js';

/** What the leader's function receives. */
export interface Leadership {
  /** Aborted when the leadership may be gone or must end; stop working when it aborts. */
  readonly signal: AbortSignal;
  /** The selector that leads. */
  readonly selector: LeaderSelector;
  /** The fencing token of this term: the sequence number of our lock node. */
  readonly fencingToken: number | undefined;
  /** A writer whose writes ZooKeeper applies only while our lock node exists; it refuses once the term ends. */
  fenced(): FencedWriter;
}

/** The leader's work: runs while we lead; leadership ends when the promise settles. */
export type TakeLeadership = (leadership: Leadership) => Promise<void>;

/** Options of {@link LeaderSelector}. */
export interface LeaderSelectorOptions {
  /** Participant id, written as the node's data (UTF-8). Without one, the local address is written. */
  id?: string;
  /** Stand again after each term (Curator's `autoRequeue()`). */
  autoRequeue?: boolean;
  /** Which connection state cancels leadership: 'suspended' (default, as Curator) or only 'lost'. */
  lostOn?: LostPolicy;
}

/** Events of {@link LeaderSelector}. */
export interface LeaderSelectorEvents {
  /** The leadership may be gone (connection suspended, session lost, node deleted); the signal is aborted. */
  lost: [event: LostEvent];
  /** `takeLeadership` threw (other than by its signal), or a term could not start. */
  error: [error: unknown];
}

/** Pause before standing again after a failed attempt, so a broken connection does not spin the loop. */
const REQUEUE_BACKOFF_MS = 200;

/** A leader election that runs a function while leading, then passes leadership on. */
export class LeaderSelector extends EventEmitter<LeaderSelectorEvents> implements AsyncDisposable {
  /** The election's parent node. */
  readonly path: string;
  /** Our participant id, stored as the data of our lock node. */
  readonly id: string;
  readonly #client: RecipeClient;
  readonly #takeLeadership: TakeLeadership;
  readonly #mutex: InterProcessMutex;
  readonly #closing = new AbortController();
  #autoRequeue: boolean;
  #state: 'latent' | 'started' | 'closed' = 'latent';
  #loop: Promise<void> | undefined;
  #requeued = false;
  #term: AbortController | undefined;
  /** Calls our listeners (one that throws changes nothing here) and reports background failures. */
  readonly #reporter: Reporter<LeaderSelectorEvents>;

  constructor(
    client: RecipeClient,
    path: string,
    takeLeadership: TakeLeadership,
    options: LeaderSelectorOptions = {},
  ) {
    super();
    if (typeof takeLeadership !== 'function') {
      throw new InvalidRecipeArgumentError('takeLeadership', 'must be an async function');
    }
    this.#client = client;
    this.path = validateRecipePath(path);
    this.#reporter = new Reporter(this, client, `LeaderSelector ${this.path}`);
    this.id = options.id ?? '';
    if (typeof this.id !== 'string') throw new InvalidRecipeArgumentError('id', 'must be a string');
    this.#takeLeadership = takeLeadership;
    this.#autoRequeue = options.autoRequeue ?? false;
    this.#mutex = new InterProcessMutex(client, this.path, {
      ...(this.id.length > 0 ? { nodeData: this.id } : {}),
      lostOn: options.lostOn ?? 'suspended',
    });
    this.#mutex.on('lost', (event) => {
      this.#term?.abort(this.#mutex.lostSignal?.reason);
      this.#reporter.emit('lost', event);
    });
  }

  /** True while `takeLeadership` runs. */
  get hasLeadership(): boolean {
    return this.#term !== undefined;
  }

  /** Stands for leadership. */
  start(): void {
    if (this.#state !== 'latent') throw new IllegalRecipeStateError('LeaderSelector was already started');
    this.#state = 'started';
    this.requeue();
  }

  /** Stand again after each term from now on. */
  autoRequeue(): void {
    this.#autoRequeue = true;
  }

  /**
   * Stands again for one more term if not already standing or leading. False when already in line.
   */
  requeue(): boolean {
    if (this.#state !== 'started') throw new IllegalRecipeStateError('LeaderSelector is not started');
    if (this.#loop !== undefined) {
      this.#requeued = true;
      return false;
    }
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
    });
    return true;
  }

  /** Aborts the current term's signal (Curator's `interruptLeadership`). */
  interruptLeadership(): void {
    this.#term?.abort(new IllegalRecipeStateError('leadership was interrupted'));
  }

  /** The participants in line, the leader first. */
  getParticipants(): Promise<Participant[]> {
    return readParticipants(this.#client, this.path, MUTEX_LOCK_NAME);
  }

  /** The current leader, or a participant with id `''` and `isLeader` false when nobody stands. */
  getLeader(): Promise<Participant> {
    return readLeader(this.#client, this.path, MUTEX_LOCK_NAME);
  }

  /** Leaves the election: aborts the term, waits for `takeLeadership` to settle, deletes our node. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    const reason = new IllegalRecipeStateError('LeaderSelector was closed');
    this.#closing.abort(reason);
    this.#term?.abort(reason);
    await this.#loop;
  }

  /** Same as `close()`, for `await using`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #run(): Promise<void> {
    do {
      this.#requeued = false;
      try {
        await this.#oneTerm();
      } catch (error) {
        if (this.#state !== 'started') break;
        if (isClientClosed(error) || this.#clientIsDone()) {
          // Nothing more can be done with this client (closed, or expired without a new session).
          this.#report(error);
          break;
        }
        // Curator's autoRequeue swallows connection and session errors and stands again.
        if (!this.#autoRequeue || !(isRetryable(error) || isSessionExpired(error))) this.#report(error);
        await sleep(REQUEUE_BACKOFF_MS);
      }
    } while (this.#state === 'started' && (this.#autoRequeue || this.#requeued));
  }

  /** Waits in line, leads, and releases. */
  async #oneTerm(): Promise<void> {
    const acquired = await this.#mutex.acquire({ signal: this.#closing.signal });
    if (!acquired) return;
    const term = new AbortController();
    this.#term = term;
    publishLeadership(() => ({ event: 'gained', recipe: 'LeaderSelector', path: this.path, id: this.id }));
    const signals = [term.signal, this.#closing.signal];
    if (this.#mutex.lostSignal) signals.push(this.#mutex.lostSignal);
    try {
      if (this.#state !== 'started') return;
      const signal = AbortSignal.any(signals);
      await this.#takeLeadership({
        signal,
        selector: this,
        fencingToken: this.#mutex.fencingToken,
        fenced: () => this.#mutex.fenced({ signal }),
      });
    } catch (error) {
      // Ending because the signal aborted is the expected way out; anything else is reported.
      if (!term.signal.aborted && !this.#closing.signal.aborted && !this.#mutex.lostSignal?.aborted) {
        this.#reporter.listenerThrew('takeLeadership function', error);
      }
    } finally {
      this.#term = undefined;
      const lost = this.#mutex.lostSignal?.reason as { reason?: string } | undefined;
      const reason = lost?.reason ?? (this.#closing.signal.aborted ? 'closed' : 'ended');
      publishLeadership(() => ({
        event: 'lost',
        recipe: 'LeaderSelector',
        path: this.path,
        id: this.id,
        reason,
      }));
      await this.#mutex.release();
    }
  }

  #clientIsDone(): boolean {
    return this.#client.state === 'closed' || this.#client.state === 'expired';
  }

  #report(error: unknown): void {
    this.#reporter.background(error, 'standing for leadership failed');
  }
}
