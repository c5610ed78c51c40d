/**
 * One AbortSignal that aborts when either of two does: a call's own `signal` and the signal of the chroot
 * view it runs through (aborted when the view closes).
 */

/** The linked signal, and the function that detaches it from its sources once the call is over. */
export interface LinkedSignal {
  readonly signal: AbortSignal | undefined;
  dispose(): void;
}

/**
 * Links `own` (the caller's option, passed through as it is when it is not an AbortSignal, so that the
 * client refuses it with its usual InvalidArgumentError) with `view`.
 */
export function linkSignals(own: unknown, view: AbortSignal): LinkedSignal {
  if (own === undefined) return { signal: view, dispose: () => {} };
  if (!(own instanceof AbortSignal)) return { signal: own as AbortSignal, dispose: () => {} };
  const controller = new AbortController();
  const abort = (source: AbortSignal) => () => controller.abort(source.reason);
  const onOwn = abort(own);
  const onView = abort(view);
  const dispose = () => {
    own.removeEventListener('abort', onOwn);
    view.removeEventListener('abort', onView);
  };
  if (own.aborted) controller.abort(own.reason);
  else if (view.aborted) controller.abort(view.reason);
  else {
    own.addEventListener('abort', onOwn, { once: true });
    view.addEventListener('abort', onView, { once: true });
  }
  return { signal: controller.signal, dispose };
}
