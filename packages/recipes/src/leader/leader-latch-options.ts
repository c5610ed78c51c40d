/** The names, options and events of `LeaderLatch` (Curator's LeaderLatch.CloseMode and listener). */
import type { RecipeCompression } from '../internal-common/compression.js';
import type { LostEvent, LostPolicy } from '../internal-common/hold-monitor.js';

/** Curator's name for latch contenders. */
export const LATCH_LOCK_NAME = 'latch-';

/** What `close()` tells the listeners (Curator's LeaderLatch.CloseMode). */
export const CloseMode = {
  /** Close without a `notLeader` event (Curator's default). */
  SILENT: 'silent',
  /** Emit `notLeader` when a leader closes. */
  NOTIFY_LEADER: 'notify-leader',
} as const;

/** One of {@link CloseMode}. */
export type CloseMode = (typeof CloseMode)[keyof typeof CloseMode];

/** Options of `LeaderLatch`. */
export interface LeaderLatchOptions {
  /** Participant id, written as the node's data (UTF-8). Default `''` (zero bytes), as in Curator. */
  id?: string;
  /** Default mode of `close()`. */
  closeMode?: CloseMode;
  /** Which connection state ends leadership: 'suspended' (default, Curator's standard policy) or only 'lost'. */
  lostOn?: LostPolicy;
  /**
   * Compress our id in our node and decompress the others' in `getParticipants`/`getLeader`, as a Curator
   * client with `enableCompression()` does (CURATOR-725). Election itself goes by node names either way.
   */
  compression?: RecipeCompression;
}

/** Events of `LeaderLatch` (Curator's LeaderLatchListener, plus `lost` and `error`). */
export interface LeaderLatchEvents {
  /** We became the leader. */
  isLeader: [];
  /** We stopped being the leader. */
  notLeader: [];
  /** We were leading when the connection was suspended or the session lost: the leadership may be gone. */
  lost: [event: LostEvent];
  /** A background step failed with something other than a connection problem. */
  error: [error: unknown];
}

/** The latch's life cycle. */
export type LeaderLatchState = 'latent' | 'started' | 'closed';
