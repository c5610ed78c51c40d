/**
 * Waiting for what an emitter or a callback reports: the next event (optionally the next one that matches),
 * the next connection state, and a listener that records every call and resolves at the first.
 */

/** An emitter that can add and remove a listener of `event` (Node's EventEmitter, a client, a recipe). */
export interface ListenerTarget<Args extends unknown[]> {
  on(event: string, listener: (...args: Args) => void): unknown;
  off(event: string, listener: (...args: Args) => void): unknown;
}

/**
 * Resolves with the arguments of the next `event` that `emitter` emits (and for which `where`, when given, is
 * true), then removes its listener. Register before causing the event: past events are not seen.
 */
export function nextEvent<Args extends unknown[]>(
  emitter: ListenerTarget<Args>,
  event: string,
  where?: (...args: Args) => boolean,
): Promise<Args> {
  if (typeof event !== 'string' || event.length === 0) {
    throw new TypeError('nextEvent: event must be a non-empty string');
  }
  if (where !== undefined && typeof where !== 'function') {
    throw new TypeError('nextEvent: where must be a function');
  }
  return new Promise((resolve) => {
    const listener = (...args: Args) => {
      if (where !== undefined && !where(...args)) return;
      emitter.off(event, listener);
      resolve(args);
    };
    emitter.on(event, listener);
  });
}

/**
 * Resolves at the next `state` event equal to `wanted` (a client's `'connected'`, `'suspended'`, ...).
 * Register before causing it.
 */
export async function nextState<State>(emitter: ListenerTarget<[State]>, wanted: State): Promise<void> {
  await nextEvent(emitter, 'state', (state) => state === wanted);
}

/** What {@link callRecorder} returns: a listener to hand out, what it was called with, and the first call. */
export interface CallRecorder<T> {
  /** Pass it as the callback (a watcher, a listener). */
  readonly listener: (value: T) => void;
  /** Every value it was called with, in order. */
  readonly calls: T[];
  /** Resolves with the first value it is called with. */
  readonly first: Promise<T>;
}

/** A callback that records its calls: `first` for "the watch fired", `calls` for "and only once". */
export function callRecorder<T>(): CallRecorder<T> {
  const calls: T[] = [];
  let resolveFirst!: (value: T) => void;
  const first = new Promise<T>((resolve) => {
    resolveFirst = resolve;
  });
  return {
    listener: (value: T) => {
      calls.push(value);
      resolveFirst(value);
    },
    calls,
    first,
  };
}
