/** The znodes every soak process shares (Node and Java use the same layout, so they contend). */
export const SOAK_ROOT = '/soak';

export const SoakPaths = {
  mutex: `${SOAK_ROOT}/mutex`,
  semaphore: `${SOAK_ROOT}/semaphore`,
  leader: `${SOAK_ROOT}/leader`,
  queue: `${SOAK_ROOT}/queue`,
  queueLocks: `${SOAK_ROOT}/queue-locks`,
  /** The plain-data tree: acknowledged writes are read back here at the end; the caches watch it. */
  writes: `${SOAK_ROOT}/writes`,
  /** Guarded resources: `{"token":N,...}` written with versioned setData. */
  mutexGuard: `${SOAK_ROOT}/guard-mutex`,
  leaderGuard: `${SOAK_ROOT}/guard-leader`,
  /** Unfenced per-process markers written while holding a lease (their zxids order the leases). */
  semaphoreMarks: `${SOAK_ROOT}/semaphore-marks`,
} as const;

/**
 * Made persistent before the run: a container parent that empties would be deleted by the server and its
 * sequence counter (our fencing tokens) would start again from zero.
 */
export const PERSISTENT_PATHS = [
  SOAK_ROOT,
  SoakPaths.mutex,
  SoakPaths.semaphore,
  `${SoakPaths.semaphore}/leases`,
  `${SoakPaths.semaphore}/locks`,
  SoakPaths.leader,
  SoakPaths.queue,
  SoakPaths.queueLocks,
  SoakPaths.writes,
  SoakPaths.semaphoreMarks,
] as const;

/** Initial guard data: no token seen yet. */
export const EMPTY_GUARD = '{"token":-1}';
