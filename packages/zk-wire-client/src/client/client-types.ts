/** The types of the client's calls and events that are its own (not of the protocol or the options). */
import type { CallOptions, ConnectionState, WatchEvent, Watcher } from '../util/types.js';

/** Options of reads that can set a one-shot watch. */
export interface WatchOptions extends CallOptions {
  /** Called once on the next change (armed by the same request as the read). */
  watch?: Watcher | undefined;
}

/** Events of the client (EventEmitter). */
export interface ClientEventMap {
  /** Connection state changes, with Curator's meanings. */
  state: [ConnectionState];
  /** A watcher threw; the client carries on. */
  watcherError: [unknown, WatchEvent];
}
