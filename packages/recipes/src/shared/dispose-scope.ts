/**
 * Ties the blocking calls of one recipe object to its lifetime: each call's deadline also ends when the object
 * is disposed, so `await using` never leaves a wait running after its scope.
 */
import { Deadline, type WaitOptions } from '../internal-common/deadline.js';
import { IllegalRecipeStateError } from '../internal-common/recipe-errors.js';

/** The lifetime of one recipe object. */
export class DisposeScope {
  readonly #name: string;
  readonly #controller = new AbortController();

  constructor(name: string) {
    this.#name = name;
  }

  /** True once {@link DisposeScope.close} was called. */
  get closed(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Throws ILLEGAL_STATE once the object was disposed. */
  checkOpen(): void {
    if (this.closed) throw this.#closedError();
  }

  /** A deadline from the caller's options that also ends (with ILLEGAL_STATE) when the object is disposed. */
  deadline(options: WaitOptions | undefined): Deadline {
    this.checkOpen();
    const callerDeadline = Deadline.of(options); // validates the options before anything is sent
    const signal = callerDeadline.signal
      ? AbortSignal.any([callerDeadline.signal, this.#controller.signal])
      : this.#controller.signal;
    const remaining = callerDeadline.remainingMs();
    return Deadline.of({ ...(Number.isFinite(remaining) ? { timeoutMs: remaining } : {}), signal });
  }

  /** A signal aborted when the object is disposed. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Ends every call in progress (they reject with ILLEGAL_STATE). Idempotent. */
  close(): void {
    if (!this.closed) this.#controller.abort(this.#closedError());
  }

  #closedError(): IllegalRecipeStateError {
    return new IllegalRecipeStateError(`${this.#name} was closed`);
  }
}
