/**
 * Shared bits of the OpenTelemetry tests: one real ZooKeeper server and client per test file, the SDK's
 * in-memory span and metric exporters behind real tracer and meter providers, and readers for what they hold.
 */
import diagnostics from 'node:diagnostics_channel';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { QueueChannelName } from '@zkwire/queues';
import { RecipeChannelName } from '@zkwire/recipes';
import { serverFixture, type ZooKeeperServer } from '@zkwire/testing';
import { ChannelName, connect, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll } from 'vitest';

/** A tracer and a meter provider of the real SDK, each exporting into memory (options of `instrumentZkwire`). */
export interface Telemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** Collects every metric now (cumulative since the providers were made). */
  collect(): Promise<MetricData[]>;
  shutdown(): Promise<void>;
}

/** New providers with in-memory exporters (spans exported as they end, metrics on `collect()`). */
export function createTelemetry(): Telemetry {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // The interval is never reached in a test: collect() flushes by hand.
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spanExporter.getFinishedSpans(),
    async collect() {
      metricExporter.reset();
      await reader.forceFlush();
      return metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** One data point of a metric: its attributes and its value (a sum, or a histogram's count and sum). */
export interface Point {
  attributes: Record<string, unknown>;
  value: number;
  count?: number;
}

/** The data points of the metric `name` (none when it was never recorded). */
export function points(metrics: MetricData[], name: string): Point[] {
  const metric = metrics.find((m) => m.descriptor.name === name);
  if (metric === undefined) return [];
  if (metric.dataPointType === DataPointType.HISTOGRAM) {
    return metric.dataPoints.map((p) => ({
      attributes: { ...p.attributes },
      value: p.value.sum ?? 0,
      count: p.value.count,
    }));
  }
  if (metric.dataPointType === DataPointType.SUM) {
    return metric.dataPoints.map((p) => ({ attributes: { ...p.attributes }, value: p.value }));
  }
  throw new Error(`metric ${name}: unexpected data point type ${metric.dataPointType}`);
}

/** The unit the metric `name` was created with. */
export function unitOf(metrics: MetricData[], name: string): string | undefined {
  return metrics.find((m) => m.descriptor.name === name)?.descriptor.unit;
}

/**
 * Makes `context.active()` follow async calls (AsyncLocalStorage), as a Node SDK setup does, for the
 * calling test file; restores the no-op context manager afterwards.
 */
export function useContextManager(): void {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });
}

/** What {@link useServer} starts for a test file; read it inside tests and hooks, once beforeAll ran. */
export interface ServerFixture {
  readonly server: ZooKeeperServer;
  /** A client connected before the tests and closed after them. */
  readonly client: ZooKeeperClient;
}

/** Starts one real server and one client for the calling test file; closes both afterwards. */
export function useServer(): ServerFixture {
  const fixture = serverFixture();
  let client: ZooKeeperClient | undefined;
  beforeAll(async () => {
    await fixture.start();
    client = fixture.track(await connect({ connectString: fixture.server.connectString }));
  });
  afterAll(fixture.stop);
  return {
    get server() {
      return fixture.server;
    },
    get client() {
      if (client === undefined) throw new Error('useServer: no client yet (read it inside a test or hook)');
      return client;
    },
  };
}

let counter = 0;

/** A fresh path per test, so tests sharing one server never see each other's nodes. */
export function uniquePath(label: string): string {
  counter++;
  return `/otel-${label}-${process.pid}-${counter}`;
}

/** Every zkwire channel, the request TracingChannel as its five channels (`tracing:<name>:<event>`). */
const ALL_CHANNELS = [
  ...['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:${ChannelName.request}:${e}`),
  ...Object.values(ChannelName).filter((name) => name !== ChannelName.request),
  ...Object.values(RecipeChannelName),
  ...Object.values(QueueChannelName),
];

/** The zkwire channels that have a subscriber now (none, once every instrumentation is gone). */
export function listenedChannels(): string[] {
  return ALL_CHANNELS.filter((name) => diagnostics.channel(name).hasSubscribers);
}
