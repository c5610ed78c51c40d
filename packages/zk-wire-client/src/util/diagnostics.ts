/**
 * Tracing and metrics through `node:diagnostics_channel`: the channel names are a public contract
 * (docs/contracts.md, "Diagnostics channels"). Nothing is built or published while nobody subscribes: each
 * publisher checks `hasSubscribers` first, so the cost without subscribers is one property read.
 *
 * Requests use a TracingChannel (`start`/`end` around the synchronous submission, `asyncStart`/`asyncEnd`
 * around the settlement, `error` on failure), published by hand rather than with `tracePromise`: that would
 * return a derived promise, one reaction step later than the replies settled after it, and break the order
 * the client promises. The context object is the same for all five events of one request.
 */
import diagnostics from 'node:diagnostics_channel';
import type { ConnectionState, SessionState, WatchEvent } from './types.js';

/** The channel names (stable). */
export const ChannelName = {
  request: 'zkwire:client:request',
  state: 'zkwire:client:state',
  connect: 'zkwire:client:connect',
  watchEvent: 'zkwire:client:watch-event',
  readPacing: 'zkwire:client:read-pacing',
} as const;

/** The context of one traced request, shared by its start, end, asyncStart, asyncEnd and error events. */
export interface RequestTraceContext {
  /** The operation (`getData`, `create`, `multi`, ...). */
  operation: string;
  /** The client path (undefined for multi, whoAmI, ...). */
  path: string | undefined;
  xid: number;
  /** The request frame's size, length prefix included. */
  bytesOut: number;
  /** The reply frame's size, length prefix included (0 when it failed without a reply). */
  bytesIn: number;
  /** `performance.now()` when the call was made. */
  startTime: number;
  /** Milliseconds from the call to its settlement (set at asyncStart). */
  durationMs: number;
  /** The error's stable code when it failed (`NONODE`, `CONNECTIONLOSS`, ...). */
  errorCode: string | undefined;
  /** Set on `error` (TracingChannel's convention). */
  error?: unknown;
  /** Set on success (TracingChannel's convention). */
  result?: unknown;
}

/** A connection state change of a client (`state` and the session's own state). */
export interface StateMessage {
  sessionId: bigint;
  /** Curator's connection state event, when this change made one. */
  connectionState: ConnectionState | undefined;
  sessionState: SessionState;
}

/** A connection attempt: to which host, and why (the previous connection's end, or the first one). */
export interface ConnectMessage {
  host: string;
  port: number;
  sessionId: bigint;
  /** Why the previous connection ended, when there was one (an error code such as CONNECTIONLOSS). */
  reason: string | undefined;
  /** The previous connection's error message. */
  reasonMessage: string | undefined;
}

/** A watch event read from the server, with the number of local watchers it reached. */
export interface WatchEventMessage {
  event: WatchEvent;
  watchers: number;
}

/** A read-pacing decision that made the connection wait before reading again. */
export interface ReadPacingMessage {
  waitMs: number;
  /** Replies awaited when the wait was decided. */
  awaitingReplies: number;
}

const requestChannel = diagnostics.tracingChannel<string, RequestTraceContext>(ChannelName.request);
const stateChannel = diagnostics.channel(ChannelName.state);
const connectChannel = diagnostics.channel(ChannelName.connect);
const watchEventChannel = diagnostics.channel(ChannelName.watchEvent);
const readPacingChannel = diagnostics.channel(ChannelName.readPacing);

/** Starts tracing a request: returns its context, or undefined (and does nothing) when nobody listens. */
export function traceRequestStart(
  operation: string,
  path: string | undefined,
  xid: number,
  bytesOut: number,
): RequestTraceContext | undefined {
  if (!requestChannel.hasSubscribers) return undefined;
  const context: RequestTraceContext = {
    operation,
    path,
    xid,
    bytesOut,
    bytesIn: 0,
    startTime: performance.now(),
    durationMs: 0,
    errorCode: undefined,
  };
  requestChannel.start.publish(context);
  requestChannel.end.publish(context);
  return context;
}

/**
 * Publishes a request's settlement: `error` (on failure), then `asyncStart` and `asyncEnd`. Called by the
 * request itself just before its promise settles, so subscribers see requests in settlement order.
 */
export function traceRequestSettled(
  context: RequestTraceContext,
  outcome: { value: unknown } | { error: unknown },
): void {
  context.durationMs = performance.now() - context.startTime;
  if ('error' in outcome) {
    context.error = outcome.error;
    const code = (outcome.error as { code?: unknown } | undefined)?.code;
    context.errorCode = typeof code === 'string' ? code : undefined;
    requestChannel.error.publish(context);
  } else {
    context.result = outcome.value;
  }
  requestChannel.asyncStart.publish(context);
  requestChannel.asyncEnd.publish(context);
}

/** Publishes a state change when someone listens. */
export function publishState(message: () => StateMessage): void {
  if (stateChannel.hasSubscribers) stateChannel.publish(message());
}

/** Publishes a connection attempt when someone listens. */
export function publishConnect(message: () => ConnectMessage): void {
  if (connectChannel.hasSubscribers) connectChannel.publish(message());
}

/** Publishes a watch event when someone listens. */
export function publishWatchEvent(event: WatchEvent, watchers: number): void {
  if (watchEventChannel.hasSubscribers)
    watchEventChannel.publish({ event, watchers } satisfies WatchEventMessage);
}

/** Publishes a read-pacing wait when someone listens. */
export function publishReadPacing(waitMs: number, awaitingReplies: number): void {
  if (readPacingChannel.hasSubscribers)
    readPacingChannel.publish({ waitMs, awaitingReplies } satisfies ReadPacingMessage);
}
