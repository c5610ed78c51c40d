/**
 * Requests: one CLIENT span and one duration measurement per request, from the client's `zkwire:client:request`
 * TracingChannel.
 *
 * The span starts at `start`, which the client publishes synchronously inside the caller's call, so
 * `context.active()` there is the caller's context and becomes the parent. It ends at `asyncEnd`, which the
 * client publishes just before the call's promise settles. The span is kept in a WeakMap keyed by the
 * request's context object (the same object for its five events), so nothing is added to the client's object
 * and nothing outlives a request that is dropped.
 */
import {
  type Attributes,
  context,
  type Meter,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { ChannelName, type RequestTraceContext } from '@zkwire/zk-wire-client';
import { subscribe } from './guarded.js';
import { histogram } from './instruments.js';
import { AttributeName, DB_SYSTEM } from './names.js';

/** The TracingChannel's five channels are named `tracing:<name>:<event>` (Node's contract). */
const tracingEvent = (event: 'start' | 'error' | 'asyncEnd') => `tracing:${ChannelName.request}:${event}`;

/** What {@link traceRequests} returns. */
export interface RequestTracing {
  /**
   * Stops at once starting spans; the spans of requests already in flight still end when their requests
   * settle, and the last listeners are removed then (at once when none is in flight).
   */
  stop(): void;
}

/** Subscribes to the request TracingChannel: spans on `tracer`, the duration histogram on `meter`. */
export function traceRequests(tracer: Tracer, meter: Meter): RequestTracing {
  const duration = histogram(meter, 'requestDuration');
  const spans = new WeakMap<RequestTraceContext, Span>();
  let inFlight = 0;
  let stopping = false;

  const onStart = (request: RequestTraceContext) => {
    const attributes: Attributes = {
      [AttributeName.dbSystemName]: DB_SYSTEM,
      [AttributeName.dbOperationName]: request.operation,
      [AttributeName.zookeeperXid]: request.xid,
      [AttributeName.zookeeperRequestSize]: request.bytesOut,
    };
    if (request.path !== undefined) attributes[AttributeName.zookeeperPath] = request.path;
    const span = tracer.startSpan(
      `${DB_SYSTEM} ${request.operation}`,
      { kind: SpanKind.CLIENT, attributes },
      context.active(),
    );
    spans.set(request, span);
    inFlight++;
  };

  const onError = (request: RequestTraceContext) => {
    const span = spans.get(request);
    if (span === undefined) return;
    const errorType = errorTypeOf(request);
    span.setAttribute(AttributeName.errorType, errorType);
    const errno = (request.error as { errno?: unknown } | undefined)?.errno;
    if (typeof errno === 'number') span.setAttribute(AttributeName.dbResponseStatusCode, String(errno));
    const message = request.error instanceof Error ? request.error.message : undefined;
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: message === undefined ? errorType : `${errorType}: ${message}`,
    });
  };

  const onAsyncEnd = (request: RequestTraceContext) => {
    const span = spans.get(request);
    // Requests whose start this instrumentation did not see (made before it was enabled, or after it was
    // disabled while others were still in flight) are neither traced nor measured.
    if (span === undefined) return;
    spans.delete(request);
    inFlight--;
    try {
      span.setAttribute(AttributeName.zookeeperResponseSize, request.bytesIn);
      span.end();
      const failed = 'error' in request;
      const attributes: Attributes = {
        [AttributeName.dbSystemName]: DB_SYSTEM,
        [AttributeName.dbOperationName]: request.operation,
        [AttributeName.outcome]: failed ? 'error' : 'success',
      };
      if (failed) attributes[AttributeName.errorType] = errorTypeOf(request);
      duration.record(request.durationMs / 1000, attributes);
    } finally {
      // Even when the SDK threw above: a stopped instrumentation must not keep its listeners.
      if (stopping && inFlight === 0) unsubscribeSettlement();
    }
  };

  const unsubscribeStart = subscribe(tracingEvent('start'), onStart);
  const unsubscribeError = subscribe(tracingEvent('error'), onError);
  const unsubscribeAsyncEnd = subscribe(tracingEvent('asyncEnd'), onAsyncEnd);
  const unsubscribeSettlement = () => {
    unsubscribeError();
    unsubscribeAsyncEnd();
  };

  return {
    stop() {
      if (stopping) return;
      stopping = true;
      unsubscribeStart();
      if (inFlight === 0) unsubscribeSettlement();
    },
  };
}

/** `error.type`: the client's stable error code (`NONODE`, ...), else the error's class name. */
function errorTypeOf(request: RequestTraceContext): string {
  if (request.errorCode !== undefined) return request.errorCode;
  return request.error instanceof Error ? request.error.name : '_OTHER';
}
