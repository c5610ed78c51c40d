/**
 * @zkwire/opentelemetry: OpenTelemetry spans and metrics from zkwire's `node:diagnostics_channel` channels.
 * @packageDocumentation
 */
export {
  INSTRUMENTATION_SCOPE,
  instrumentZkwire,
  type ZkwireInstrumentation,
  type ZkwireInstrumentationOptions,
} from './instrument.js';
export { AttributeName, MetricName } from './names.js';
