/**
 * Every instrument this package records on, in one table: a counter's unit and description, a histogram's
 * description and bucket boundaries (histograms are all in seconds). The README documents the same.
 */
import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import { MetricName } from './names.js';

/**
 * Bucket boundaries of the request duration histogram, in seconds: OpenTelemetry's database client
 * boundaries, with sub-millisecond ones in front because most ZooKeeper calls on a LAN take less than a ms.
 */
const REQUEST_DURATION_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** Read-pacing waits are 1 to 50 ms (the client's `readCoalescing.delayMs` range), in seconds. */
const READ_PACING_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05];

/** Lock waits and hold times run from milliseconds to minutes; in seconds. */
const HOLD_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

const COUNTERS = {
  stateChanges: ['{change}', 'Session state changes of ZooKeeper clients.'],
  connectionAttempts: ['{attempt}', 'Connection attempts of ZooKeeper clients, per server.'],
  watchEvents: ['{event}', 'Watch events read from ZooKeeper servers.'],
  readPacingWaits: ['{wait}', 'Waits between socket reads decided by read pacing under load.'],
  holdEvents: ['{event}', 'Locks and semaphore leases acquired, released and lost.'],
  leadershipChanges: [
    '{change}',
    'Leadership gained and lost by LeaderLatch and LeaderSelector participants.',
  ],
  queueBatches: ['{batch}', 'Queue nodes (batches) put, consumed and requeued.'],
  queueItems: ['{item}', 'Queue items put, consumed and requeued.'],
} as const satisfies Partial<Record<keyof typeof MetricName, readonly [string, string]>>;

const HISTOGRAMS = {
  requestDuration: [
    'Duration of ZooKeeper requests, from the call to its settlement.',
    REQUEST_DURATION_BUCKETS,
  ],
  readPacingWaitDuration: ['Length of each read-pacing wait.', READ_PACING_BUCKETS],
  holdWaitDuration: ['How long each lock or lease acquisition waited.', HOLD_BUCKETS],
  holdDuration: ['How long a lock or lease was held until released or lost.', HOLD_BUCKETS],
} as const satisfies Partial<Record<keyof typeof MetricName, readonly [string, number[]]>>;

/** The counter `metric` on `meter`. */
export function counter(meter: Meter, metric: keyof typeof COUNTERS): Counter {
  const [unit, description] = COUNTERS[metric];
  return meter.createCounter(MetricName[metric], { unit, description });
}

/** The histogram `metric` on `meter`, in seconds. */
export function histogram(meter: Meter, metric: keyof typeof HISTOGRAMS): Histogram {
  const [description, buckets] = HISTOGRAMS[metric];
  return meter.createHistogram(MetricName[metric], {
    unit: 's',
    description,
    advice: { explicitBucketBoundaries: buckets },
  });
}
