/**
 * What the report shows of each scale scenario: its columns (figures of the cells' `scale.figures`, by name)
 * and the figures whose growth with size it gives as log-log slopes (scale/slope.ts). Per-unit figures (heap
 * per node) are flat when a cost is linear, so the slopes are taken of totals: times and CPU.
 */

export interface ScaleColumn {
  key: string;
  label: string;
  /** digits after the point */
  digits: number;
}

export interface ScaleView {
  columns: ScaleColumn[];
  /** figures drawn against size and given a slope; the first is the chart's */
  slopes: string[];
}

const col = (key: string, label: string, digits = 0): ScaleColumn => ({ key, label, digits });

export const scaleViews: Record<string, ScaleView> = {
  cacheScale: {
    columns: [
      col('loadMs', 'load ms'),
      col('loadCpuMs', 'load CPU ms'),
      col('heapPerNode', 'heap B/node'),
      col('rssPerNode', 'RSS B/node'),
      col('eventsPerSec', 'events/s'),
      col('writesPerSec', 'writes/s'),
      col('lagP50Us', 'lag p50 µs'),
      col('lagP99Us', 'lag p99 µs'),
      col('zxidLagP99', 'zxid lag p99'),
      col('sendToEventP50Us', 'send to event p50 µs'),
      col('lagFirstThirdUs', 'lag p50 1st third µs'),
      col('lagLastThirdUs', 'lag p50 last third µs'),
      col('lagGrows', 'lag grows'),
    ],
    slopes: ['loadMs', 'loadCpuMs'],
  },
  sessions: {
    columns: [
      col('connectMs', 'all connected ms'),
      col('connectCpuMs', 'storm CPU ms'),
      col('heapPerSession', 'heap B/session'),
      col('rssPerSession', 'RSS B/session'),
      col('idleCpuMsPerS', 'idle CPU ms/s', 2),
      col('idleCpuUsPerSessionPerS', 'idle CPU µs/s per session', 3),
    ],
    slopes: ['connectMs', 'connectCpuMs', 'idleCpuMsPerS'],
  },
  watchRestore: {
    columns: [
      col('restoreMs', 'reconnect to restored ms', 1),
      col('restoreCpuMs', 'restore CPU ms', 1),
      col('setWatchesFrames', 'SetWatches frames'),
      col('setWatchesBytes', 'SetWatches bytes'),
      col('lastSetWatchesMs', 'last SetWatches sent ms', 1),
      col('firedOnce', 'watches fired once'),
    ],
    slopes: ['restoreMs', 'restoreCpuMs'],
  },
};

/** The figure a scale cell's heap and RSS per unit come from, for the targets. */
export const perUnitFigures = {
  heap: ['heapPerNode', 'heapPerSession'],
  rss: ['rssPerNode', 'rssPerSession'],
} as const;
