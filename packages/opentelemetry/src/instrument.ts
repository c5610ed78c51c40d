/**
 * `instrumentZkwire`: subscribes to every zkwire diagnostics channel and turns what they publish into
 * OpenTelemetry spans and metrics, until `disable()`.
 */
import { type MeterProvider, metrics, type TracerProvider, trace } from '@opentelemetry/api';
import { version } from '../package.json';
import { recordClientMetrics } from './client-metrics.js';
import { recordRecipeMetrics } from './recipe-metrics.js';
import { traceRequests } from './request-tracing.js';

/** The instrumentation scope of every span and metric (the package's name). */
export const INSTRUMENTATION_SCOPE = '@zkwire/opentelemetry';

/** Options of {@link instrumentZkwire}. */
export interface ZkwireInstrumentationOptions {
  /** Where request spans go. Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global meter provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
}

/** A running instrumentation; `disable()` (or `using`) removes it. */
export interface ZkwireInstrumentation extends Disposable {
  /** False once {@link disable} was called. */
  readonly enabled: boolean;
  /**
   * Unsubscribes from every channel: no new span or measurement starts. Spans of requests already in flight
   * still end, with their measurement, when their requests settle; the last listener goes with them (at once
   * when nothing is in flight). Calling it again does nothing.
   */
  disable(): void;
}

/**
 * Turns zkwire's `node:diagnostics_channel` channels into OpenTelemetry spans and metrics: one CLIENT span
 * per request (`zookeeper <operation>`, its parent the caller's active context), request durations, state
 * changes, connection attempts, watch events, read-pacing waits, lock and lease holds, leadership changes and
 * queue traffic (names, units and attributes in the package README).
 *
 * Channels are found by name, so every copy of the zkwire packages in the process (ESM and CJS alike) is
 * covered, and the recipes and queues need not be installed. Several instrumentations may run at once; each
 * records on its own providers.
 *
 * @example
 * ```ts
 * import { instrumentZkwire } from '@zkwire/opentelemetry';
 *
 * const instrumentation = instrumentZkwire(); // the global tracer and meter providers
 * // ... later, on shutdown:
 * instrumentation.disable();
 * ```
 */
export function instrumentZkwire(options: ZkwireInstrumentationOptions = {}): ZkwireInstrumentation {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`instrumentZkwire: options must be an object, got ${String(options)}`);
  }
  const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
  const meterProvider = options.meterProvider ?? metrics.getMeterProvider();
  if (typeof tracerProvider?.getTracer !== 'function') {
    throw new TypeError('instrumentZkwire: tracerProvider must be a TracerProvider (it has no getTracer)');
  }
  if (typeof meterProvider?.getMeter !== 'function') {
    throw new TypeError('instrumentZkwire: meterProvider must be a MeterProvider (it has no getMeter)');
  }
  const tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE, version);
  const meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE, version);

  const requests = traceRequests(tracer, meter);
  const stopClientMetrics = recordClientMetrics(meter);
  const stopRecipeMetrics = recordRecipeMetrics(meter);

  let enabled = true;
  const disable = () => {
    if (!enabled) return;
    enabled = false;
    requests.stop();
    stopClientMetrics();
    stopRecipeMetrics();
  };
  return {
    get enabled() {
      return enabled;
    },
    disable,
    [Symbol.dispose]: disable,
  };
}
