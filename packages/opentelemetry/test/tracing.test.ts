/**
 * Request spans against a real ZooKeeper server, recorded by the OpenTelemetry SDK's in-memory exporter:
 * names, kind, attributes, status, parents (the caller's active span, also across awaits and for concurrent
 * calls), and the life cycle: nothing before instrumenting, nothing new after disable(), no listener left.
 */
import { readFileSync } from 'node:fs';
import {
  context,
  DiagLogLevel,
  diag,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INSTRUMENTATION_SCOPE, instrumentZkwire } from '../src/index.js';
import {
  createTelemetry,
  listenedChannels,
  type Telemetry,
  uniquePath,
  useContextManager,
  useServer,
} from './helpers.js';

const fixture = useServer();
useContextManager();
const packageVersion = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

let telemetry: Telemetry;
beforeEach(() => {
  telemetry = createTelemetry();
});
afterEach(async () => {
  await telemetry.shutdown();
  // Every test disables what it enabled: no channel keeps a listener between tests.
  expect(listenedChannels()).toEqual([]);
});

const names = (spans: ReadableSpan[]) => spans.map((span) => span.name);

describe('request spans', () => {
  it('makes one CLIENT span per call, with the database attributes, ended when the call settles', async () => {
    const zk = fixture.client;
    const path = uniquePath('attrs');
    using _instrumentation = instrumentZkwire(telemetry);
    const created = zk.create(path, 'hello');
    const read = zk.getData(path);
    const missing = zk.getData(`${path}/missing`).catch((error: unknown) => error);
    const who = zk.whoAmI();
    await Promise.all([created, read, missing, who]);

    const spans = telemetry.spans();
    expect(names(spans)).toEqual([
      'zookeeper create',
      'zookeeper getData',
      'zookeeper getData',
      'zookeeper whoAmI',
    ]);
    const [create, getData, getMissing, whoAmI] = spans as [
      ReadableSpan,
      ReadableSpan,
      ReadableSpan,
      ReadableSpan,
    ];
    for (const span of spans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.ended).toBe(true);
      expect(span.instrumentationScope).toMatchObject({
        name: INSTRUMENTATION_SCOPE,
        version: packageVersion,
      });
    }
    expect(create.attributes).toEqual({
      'db.system.name': 'zookeeper',
      'db.operation.name': 'create',
      'zookeeper.path': path,
      'zookeeper.xid': expect.any(Number),
      'zookeeper.request.size': expect.any(Number),
      'zookeeper.response.size': expect.any(Number),
    });
    // A create request carries the path, the data and the ACL; its reply the created path.
    expect(create.attributes['zookeeper.request.size']).toBeGreaterThan(4 + 8 + path.length + 'hello'.length);
    expect(create.attributes['zookeeper.response.size']).toBeGreaterThan(4 + 16 + path.length);
    expect(create.status.code).toBe(SpanStatusCode.UNSET);
    // Pipelined in one tick: consecutive xids, in call order.
    expect(getData.attributes['zookeeper.xid']).toBe((create.attributes['zookeeper.xid'] as number) + 1);
    expect(getData.attributes['zookeeper.path']).toBe(path);
    expect(getData.status.code).toBe(SpanStatusCode.UNSET);

    expect(getMissing.attributes).toMatchObject({
      'db.operation.name': 'getData',
      'zookeeper.path': `${path}/missing`,
      'error.type': 'NONODE',
      'db.response.status_code': '-101',
    });
    expect(getMissing.status.code).toBe(SpanStatusCode.ERROR);
    expect(getMissing.status.message).toMatch(/^NONODE: /);

    // No path for calls that have none.
    expect(whoAmI.attributes['db.operation.name']).toBe('whoAmI');
    expect(whoAmI.attributes).not.toHaveProperty('zookeeper.path');
  });

  it("parents each span on the caller's active span, across awaits and for concurrent calls", async () => {
    const zk = fixture.client;
    const path = uniquePath('parent');
    await zk.create(path, 'x');
    using _instrumentation = instrumentZkwire(telemetry);
    const tracer: Tracer = telemetry.tracerProvider.getTracer('test');

    // A request handler: two awaited calls inside one active span.
    const handler = await tracer.startActiveSpan('handler', async (span) => {
      await zk.exists(path);
      await zk.getData(path);
      span.end();
      return span;
    });
    // Concurrent calls made under different parents, settled together, and one with no parent.
    const parentA = tracer.startSpan('parent-a');
    const parentB = tracer.startSpan('parent-b');
    const underA = context.with(trace.setSpan(ROOT_CONTEXT, parentA), () => zk.getChildren(path));
    const underB = context.with(trace.setSpan(ROOT_CONTEXT, parentB), () => zk.getData(path));
    const orphan = zk.exists(path);
    await Promise.all([underA, underB, orphan]);
    parentA.end();
    parentB.end();

    const spans = telemetry.spans();
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const handlerContext = handler.spanContext();
    const [handlerExists, orphanExists] = byName('zookeeper exists') as [ReadableSpan, ReadableSpan];
    const [handlerGetData, getDataUnderB] = byName('zookeeper getData') as [ReadableSpan, ReadableSpan];
    for (const child of [handlerExists, handlerGetData]) {
      expect(child.parentSpanContext?.spanId).toBe(handlerContext.spanId);
      expect(child.spanContext().traceId).toBe(handlerContext.traceId);
    }
    const [getChildrenUnderA] = byName('zookeeper getChildren') as [ReadableSpan];
    expect(getChildrenUnderA.parentSpanContext?.spanId).toBe(parentA.spanContext().spanId);
    expect(getChildrenUnderA.spanContext().traceId).toBe(parentA.spanContext().traceId);
    expect(getDataUnderB.parentSpanContext?.spanId).toBe(parentB.spanContext().spanId);
    expect(getDataUnderB.spanContext().traceId).toBe(parentB.spanContext().traceId);
    expect(orphanExists.parentSpanContext).toBeUndefined();
    expect(orphanExists.spanContext().traceId).not.toBe(handlerContext.traceId);
  });
});

describe('life cycle', () => {
  it('records nothing when not instrumented, even with global providers set', async () => {
    const zk = fixture.client;
    trace.setGlobalTracerProvider(telemetry.tracerProvider);
    metrics.setGlobalMeterProvider(telemetry.meterProvider);
    try {
      await zk.exists('/');
      expect(telemetry.spans()).toEqual([]);
      expect(listenedChannels()).toEqual([]);

      // The same setup records once instrumented, on the global providers by default.
      const instrumentation = instrumentZkwire();
      await zk.exists('/');
      instrumentation.disable();
      expect(names(telemetry.spans())).toEqual(['zookeeper exists']);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });

  it('disable() starts no new span, ends the ones in flight, then leaves no listener', async () => {
    const zk = fixture.client;
    const path = uniquePath('disable');
    await zk.create(path, 'x');
    const instrumentation = instrumentZkwire(telemetry);
    expect(instrumentation.enabled).toBe(true);
    expect(listenedChannels().length).toBeGreaterThan(0);

    const inFlight = zk.getData(path);
    instrumentation.disable();
    expect(instrumentation.enabled).toBe(false);
    const afterDisable = zk.exists(path);
    // Only what the in-flight span needs to end is still listened to.
    expect(listenedChannels().sort()).toEqual([
      'tracing:zkwire:client:request:asyncEnd',
      'tracing:zkwire:client:request:error',
    ]);
    await Promise.all([inFlight, afterDisable]);
    expect(names(telemetry.spans())).toEqual(['zookeeper getData']);
    expect(listenedChannels()).toEqual([]);

    await zk.getData(path);
    instrumentation.disable(); // a second call does nothing
    expect(names(telemetry.spans())).toEqual(['zookeeper getData']);
  });

  it('never lets a failing tracer break a call or the process; the failure goes to diag', async () => {
    const zk = fixture.client;
    const logged: unknown[][] = [];
    const log = (...args: unknown[]) => void logged.push(args);
    diag.setLogger({ error: log, warn: log, info: log, debug: log, verbose: log }, DiagLogLevel.ERROR);
    const broken = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer bug');
        },
      }),
    } as unknown as TracerProvider;
    try {
      using _instrumentation = instrumentZkwire({
        tracerProvider: broken,
        meterProvider: telemetry.meterProvider,
      });
      await expect(zk.exists('/')).resolves.not.toBeNull();
      expect(logged).toEqual([
        [
          expect.stringContaining('tracing:zkwire:client:request:start'),
          expect.objectContaining({ message: 'tracer bug' }),
        ],
      ]);
    } finally {
      diag.disable();
    }
  });

  it('refuses options and providers of the wrong shape before subscribing anything', () => {
    expect(() => instrumentZkwire(42 as never)).toThrow(TypeError);
    expect(() => instrumentZkwire({ tracerProvider: {} as never })).toThrow(/tracerProvider/);
    expect(() => instrumentZkwire({ meterProvider: { getTracer() {} } as never })).toThrow(/meterProvider/);
    expect(listenedChannels()).toEqual([]);
  });
});
