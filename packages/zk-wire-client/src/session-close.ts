/**
 * The end of a session closed by its client: the closeSession request (wire-protocol.md §2.6) and its
 * bounded wait, and the error a close marks the session with.
 */
import { ClientClosedError } from './errors.js';
import { closeSessionReply, encodeCloseSession } from './ops/close-session.js';
import type { RequestPipeline } from './pipeline.js';

/** The longest delay setTimeout takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Builds an error without capturing a stack trace (synchronous: the global limit is restored at once). */
function withoutStack<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * What a close ends the session with. It only marks the session closed and never reaches a caller (calls get
 * fresh errors from refusal(), waiters from terminate()), so one instance, built once without a stack, serves
 * every close: building one per close cost each short session several µs.
 */
export const closedByClient = Object.freeze(withoutStack(() => new ClientClosedError()));

/**
 * Sends closeSession behind the calls already queued and waits for whichever comes first: the reply, a
 * failure (the session will then expire on the server), or `boundMs`. Never rejects.
 */
export async function closeSessionWithin(pipeline: RequestPipeline, boundMs: number): Promise<void> {
  const xid = pipeline.nextXid();
  // No request deadline (timeoutMs 0): that would poll every 25 ms for as long as the reply takes. One
  // timer bounds the wait instead; when it fires, the session's terminate() fails the call itself.
  const reply = pipeline.submit(closeSessionReply, xid, encodeCloseSession(xid), undefined, undefined, {
    internal: true,
    timeoutMs: 0,
  });
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((settle) => {
    // Unref'd like the request deadlines: the socket is what keeps the process up while it waits.
    timer = setTimeout(settle, Math.min(boundMs, MAX_TIMER_MS)).unref();
    reply.then(settle, settle);
  });
  clearTimeout(timer);
}
