/**
 * The session's two views of its state: the `SessionState` it is in (connecting, connected, read-only,
 * suspended, expired, closed) and the `ConnectionState` events with Curator's meanings (connected,
 * suspended, reconnected, lost, read-only), delivered as EventEmitter events and as async iterables
 * (curator-compat.md §13.1), and watch events handed to watchers. The session's logic decides when; this
 * base class only records and tells.
 */
import { EventEmitter } from 'node:events';
import { AsyncQueue } from '../util/async-queue.js';
import { publishState } from '../util/diagnostics.js';
import type { ConnectionState, SessionState, WatchEvent, Watcher } from '../util/types.js';

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

/** State bookkeeping and state events, the base of {@link Session}. */
export abstract class SessionStates extends EventEmitter<SessionEventMap> {
  state: SessionState = 'connecting';
  /** The session id (0n until the first ConnectResponse, and again after an expiry). */
  abstract get sessionId(): bigint;
  /** True once a first connection was made: the next one is `reconnected`. */
  protected everConnected = false;
  private lastConnectionState: ConnectionState | undefined;
  private readonly stateQueues = new Set<AsyncQueue<ConnectionState>>();

  /** True once a first connection was made (a wait for it is no longer bounded by `connectWaitMs`). */
  get hasConnected(): boolean {
    return this.everConnected;
  }

  protected setState(state: SessionState): void {
    if (this.state === state) return;
    this.state = state;
    publishState(() => ({ sessionId: this.sessionId, sessionState: state, connectionState: undefined }));
    this.emit('sessionState', state);
  }

  /** Emits a connection state event, never the same one twice in a row. */
  protected emitConnectionState(state: ConnectionState): void {
    if (this.lastConnectionState === state) return;
    this.lastConnectionState = state;
    publishState(() => ({ sessionId: this.sessionId, sessionState: this.state, connectionState: state }));
    for (const queue of this.stateQueues) queue.push(state);
    this.emit('state', state);
  }

  protected enterConnected(readOnly: boolean): void {
    this.setState(readOnly ? 'read-only' : 'connected');
    if (readOnly) this.emitConnectionState('read-only');
    else this.emitConnectionState(this.everConnected ? 'reconnected' : 'connected');
    this.everConnected = true;
  }

  /** Marks a lost connection of a live session: `suspended`. */
  protected enterSuspended(): void {
    this.setState('suspended');
    this.emitConnectionState('suspended');
  }

  /** An async iterable of connection state events, until the client closes. */
  states(signal?: AbortSignal): AsyncIterable<ConnectionState> {
    const queue: AsyncQueue<ConnectionState> = new AsyncQueue(() => this.stateQueues.delete(queue));
    if (this.state === 'closed') queue.end();
    else this.stateQueues.add(queue);
    signal?.addEventListener('abort', () => void queue.return(), { once: true });
    return queue;
  }

  /** Calls each watcher once; a throwing watcher is reported (`watcherError`) and the others still run. */
  dispatch(watchers: Iterable<Watcher>, event: WatchEvent): void {
    for (const watcher of watchers) {
      try {
        watcher(event);
      } catch (error) {
        this.emit('watcherError', error, event);
      }
    }
  }

  /** Ends every state iterable (the session will never change state again). */
  protected endStateQueues(): void {
    for (const queue of this.stateQueues) queue.end();
    this.stateQueues.clear();
  }
}
