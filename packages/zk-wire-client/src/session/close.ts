/**
 * The end of a session: the closeSession request (wire-protocol.md §2.6) and its bounded wait, the error a
 * close marks the session with, and what the calls still waiting fail with.
 */
import type { RequestPipeline } from '../pipeline/pipeline.js';
import { closeSessionReply, encodeCloseSession } from '../protocol/close-session.js';
import { ClientClosedError, type ZooKeeperError } from '../util/errors.js';
import type { SessionAuth } from './auth.js';

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
 * every close: a short session does not pay for building one.
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

/**
 * Fails what still waits when the session ends for good with `terminal`, and retires the pipeline. After a
 * close each call gets a ClientClosedError of its own (naming its operation and path); after anything else
 * (a failed authentication, a TLS failure) they share `terminal`.
 */
export function failWaitersAtEnd(
  pipeline: RequestPipeline,
  auth: SessionAuth,
  terminal: ZooKeeperError,
): void {
  const closed = terminal.code === 'CLIENTCLOSED';
  auth.rejectAll((operation) => (closed ? new ClientClosedError({ operation }) : terminal));
  // Usually nothing is left by now (a close waits for its closeSession reply).
  if (pipeline.inFlight > 0) {
    const errorFor = (r: { path: string | undefined; decoder: { operation: string } }) =>
      closed ? new ClientClosedError({ path: r.path, operation: r.decoder.operation }) : terminal;
    pipeline.failAll(errorFor, true);
  }
  pipeline.dispose();
}
