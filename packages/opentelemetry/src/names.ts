/**
 * The names this package records under: metric names, attribute names and the channels it listens to. All of
 * them are documented in the package README (name, unit, attributes); changing one breaks users' dashboards.
 */

/** The metrics recorded (all under `zkwire.`). */
export const MetricName = {
  /** Histogram, seconds: each request from the call to its settlement. */
  requestDuration: 'zkwire.client.request.duration',
  /** Counter: session state changes (and the Curator-style connection state events they made). */
  stateChanges: 'zkwire.client.state.changes',
  /** Counter: connection attempts, per host. */
  connectionAttempts: 'zkwire.client.connection.attempts',
  /** Counter: watch events read from the server. */
  watchEvents: 'zkwire.client.watch.events',
  /** Counter: waits decided by read pacing. */
  readPacingWaits: 'zkwire.client.read_pacing.waits',
  /** Histogram, seconds: the length of each read-pacing wait. */
  readPacingWaitDuration: 'zkwire.client.read_pacing.wait.duration',
  /** Counter: locks and leases acquired, released and lost. */
  holdEvents: 'zkwire.recipes.hold.events',
  /** Histogram, seconds: how long an acquisition waited. */
  holdWaitDuration: 'zkwire.recipes.hold.wait.duration',
  /** Histogram, seconds: how long a lock or lease was held until released or lost. */
  holdDuration: 'zkwire.recipes.hold.duration',
  /** Counter: leadership gained and lost. */
  leadershipChanges: 'zkwire.recipes.leadership.changes',
  /** Counter: queue batches put, consumed and requeued. */
  queueBatches: 'zkwire.queues.batches',
  /** Counter: queue items put, consumed and requeued. */
  queueItems: 'zkwire.queues.items',
} as const;

/**
 * Attribute names. The `db.*`, `error.type` and `server.*` ones are OpenTelemetry's semantic conventions
 * (database client spans, stable since semconv 1.33); the others are ZooKeeper's or zkwire's own.
 */
export const AttributeName = {
  dbSystemName: 'db.system.name',
  dbOperationName: 'db.operation.name',
  dbResponseStatusCode: 'db.response.status_code',
  errorType: 'error.type',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  /** The znode path of a request, as the caller wrote it (under the chroot). */
  zookeeperPath: 'zookeeper.path',
  zookeeperXid: 'zookeeper.xid',
  /** Request and reply frame sizes in bytes, length prefix included. */
  zookeeperRequestSize: 'zookeeper.request.size',
  zookeeperResponseSize: 'zookeeper.response.size',
  outcome: 'zkwire.outcome',
  sessionState: 'zkwire.session.state',
  connectionState: 'zkwire.connection.state',
  connectionReason: 'zkwire.connection.reason',
  watchEventType: 'zkwire.watch.event_type',
  holdEvent: 'zkwire.hold.event',
  holdKind: 'zkwire.hold.kind',
  holdReason: 'zkwire.hold.reason',
  leadershipEvent: 'zkwire.leadership.event',
  leadershipRecipe: 'zkwire.leadership.recipe',
  leadershipPath: 'zkwire.leadership.path',
  leadershipReason: 'zkwire.leadership.reason',
  queueEvent: 'zkwire.queue.event',
  queuePath: 'zkwire.queue.path',
} as const;

/** `db.system.name` of every span and request metric. */
export const DB_SYSTEM = 'zookeeper';

/**
 * The recipes' and queues' channel names (docs/contracts.md, "Diagnostics channels"). Written out here, not
 * imported, so that this package needs neither `@zkwire/recipes` nor `@zkwire/queues` installed: a channel is
 * found by its name alone, whichever copy of a package publishes on it.
 */
export const SiblingChannelName = {
  hold: 'zkwire:recipes:hold',
  leadership: 'zkwire:recipes:leadership',
  queue: 'zkwire:queues:queue',
} as const;
