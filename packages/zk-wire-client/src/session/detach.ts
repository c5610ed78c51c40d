/**
 * The end of a client that hands its session on (`detach()`): no closeSession is sent, so the server keeps
 * the session, its ephemeral nodes and its watches until the session timeout passes without a connection.
 * Before the socket is let go, the calls already made get their answers, so that the caller knows what
 * the server did with each one.
 */
import type { RequestPipeline } from '../pipeline/pipeline.js';
import { encodeExists, existsReply } from '../protocol/exists.js';

/** The longest delay setTimeout takes (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits until every call queued or written before now has settled, or `boundMs` passed, whichever comes
 * first. Replies come in request order, so one cheap read of `/` queued behind them (exists sets no watch and
 * needs no permission) settles only after all of them did. Never rejects.
 */
export async function settleCallsWithin(pipeline: RequestPipeline, boundMs: number): Promise<void> {
  if (pipeline.inFlight === 0) return;
  const xid = pipeline.nextXid();
  const barrier = pipeline.submit(existsReply, xid, encodeExists(xid, '/', false), '/', undefined, {
    internal: true,
    timeoutMs: 0,
  });
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((settle) => {
    timer = setTimeout(settle, Math.min(boundMs, MAX_TIMER_MS)).unref();
    barrier.then(
      () => settle(),
      () => settle(),
    );
  });
  clearTimeout(timer);
}
