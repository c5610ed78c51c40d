/**
 * The session's state machine and its two views: the `SessionState` it is in (connecting, connected,
 * read-only, suspended, expired, closed) and the `ConnectionState` events with Curator's meanings
 * (connected, suspended, reconnected, lost, read-only), delivered as events of the session and as async
 * iterables (curator/connection-states.md §13.1). The session's logic decides when; this part only records
 * and tells.
 */
import type { EventEmitter } from 'node:events';
import { AsyncQueue } from '../util/async-queue.js';
import { publishState } from '../util/diagnostics.js';
import type { ConnectionState, SessionState, WatchEvent } from '../util/types.js';

/** Events of a session. */
export interface SessionEventMap {
  state: [ConnectionState];
  /** A connection attempt starts, or a connection (or attempt) ends and why (for the logger). */
  connection: [
    | { phase: 'connecting'; host: string; port: number }
    | { phase: 'closed'; host: string; port: number; reason: unknown },
  ];
  sessionState: [SessionState];
  watcherError: [unknown, WatchEvent];
}

/** What the state machine needs of its session: its events, and its id for the diagnostics channel. */
export interface StateMachineOwner extends EventEmitter<SessionEventMap> {
  readonly sessionId: bigint;
}

/** A session's state, told as its events (`sessionState`, `state`) and through {@link states}. */
export class SessionStateMachine {
  state: SessionState = 'connecting';
  /** True once a first connection was made: the next one is `reconnected`. */
  private everConnected = false;
  private lastConnectionState: ConnectionState | undefined;
  // Made when a first iterable is asked for: most sessions never ask (an empty Set is ~160 bytes).
  private stateQueues: Set<AsyncQueue<ConnectionState>> | undefined;

  /** `session`: where the events go, and whose id the diagnostics channel is told. */
  constructor(private readonly session: StateMachineOwner) {}

  /** True once a first connection was made (a wait for it is no longer bounded by `connectWaitMs`). */
  get hasConnected(): boolean {
    return this.everConnected;
  }

  /** A new session after an expiry (autoRecreateSession): its first connection is told as `reconnected`. */
  markConnectedBefore(): void {
    this.everConnected = true;
  }

  enter(state: SessionState): void {
    if (this.state === state) return;
    this.state = state;
    publishState(() => ({
      sessionId: this.session.sessionId,
      sessionState: state,
      connectionState: undefined,
    }));
    this.session.emit('sessionState', state);
  }

  /** Emits a connection state event, never the same one twice in a row. */
  tell(state: ConnectionState): void {
    if (this.lastConnectionState === state) return;
    this.lastConnectionState = state;
    publishState(() => ({
      sessionId: this.session.sessionId,
      sessionState: this.state,
      connectionState: state,
    }));
    if (this.stateQueues !== undefined) for (const queue of this.stateQueues) queue.push(state);
    this.session.emit('state', state);
  }

  enterConnected(readOnly: boolean): void {
    this.enter(readOnly ? 'read-only' : 'connected');
    if (readOnly) this.tell('read-only');
    else this.tell(this.everConnected ? 'reconnected' : 'connected');
    this.everConnected = true;
  }

  /** Marks a lost connection of a live session: `suspended`. */
  enterSuspended(): void {
    this.enter('suspended');
    this.tell('suspended');
  }

  /** An async iterable of connection state events, until the client closes. */
  states(signal?: AbortSignal): AsyncIterable<ConnectionState> {
    const queue: AsyncQueue<ConnectionState> = new AsyncQueue(() => this.stateQueues?.delete(queue));
    if (this.state === 'closed') queue.end();
    else (this.stateQueues ??= new Set()).add(queue);
    signal?.addEventListener('abort', () => void queue.return(), { once: true });
    return queue;
  }

  /** Ends every state iterable (the session will never change state again). */
  end(): void {
    if (this.stateQueues === undefined) return;
    for (const queue of this.stateQueues) queue.end();
    this.stateQueues = undefined;
  }
}
