import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { Reporter, WarningCode } from './safe-emit.js';

interface Events {
  change: [value: number];
  error: [error: unknown];
}

const warnings: (Error & { code?: string })[] = [];
const onWarning = (warning: Error & { code?: string }) => warnings.push(warning);
process.on('warning', onWarning);
afterEach(() => {
  warnings.length = 0;
});

/** Warnings are delivered on a later tick, in the order they were emitted: wait for one emitted now. */
async function warningsDelivered(): Promise<void> {
  const marker = `marker ${Math.random()}`;
  process.emitWarning(marker, { code: 'TEST_MARKER' });
  while (!warnings.some((warning) => warning.message === marker)) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const ours = (code: string) => warnings.filter((warning) => warning.code === code);

describe('Reporter', () => {
  it('runs every listener, once-listeners once, whatever the ones before them throw', () => {
    const emitter = new EventEmitter<Events>();
    const reporter = new Reporter(emitter, undefined, 'Thing /a', 'zookeeper recipes');
    const seen: string[] = [];
    const errors: unknown[] = [];
    emitter.on('error', (error) => errors.push(error));
    emitter.on('change', () => {
      throw new Error('first');
    });
    emitter.once('change', (value) => seen.push(`once ${value}`));
    emitter.on('change', (value) => seen.push(`always ${value}`));
    reporter.emit('change', 1);
    reporter.emit('change', 2);
    expect(seen).toEqual(['once 1', 'always 1', 'always 2']);
    expect(errors).toEqual([new Error('first'), new Error('first')]);
  });

  it('reports a listener whose promise rejects', async () => {
    const emitter = new EventEmitter<Events>();
    const errors: unknown[] = [];
    emitter.on('error', (error) => errors.push(error));
    emitter.on('change', async () => {
      throw new Error('async bug');
    });
    new Reporter(emitter, undefined, 'Thing /b', 'zookeeper recipes').emit('change', 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([new Error('async bug')]);
  });

  it('with no error listener: the logger when there is one, else one warning per cause', async () => {
    const emitter = new EventEmitter<Events>();
    const lines: string[] = [];
    const logged = new Reporter(
      emitter,
      { logger: { warn: (line) => lines.push(line) } },
      'Thing /c',
      'zookeeper recipes',
    );
    logged.background(Object.assign(new Error('denied'), { code: 'NOAUTH' }), 'keeping it failed');
    expect(lines).toEqual(['zookeeper recipes: Thing /c: keeping it failed: NOAUTH: denied']);

    const unheard = new Reporter(emitter, undefined, 'Thing /d', 'zookeeper recipes');
    for (let i = 0; i < 3; i++) {
      unheard.background(Object.assign(new Error(`denied ${i}`), { code: 'NOAUTH' }), 'keeping it failed');
    }
    unheard.background(Object.assign(new Error('gone'), { code: 'NONODE' }), 'keeping it failed');
    await warningsDelivered();
    expect(ours(WarningCode.BACKGROUND_ERROR).map((warning) => warning.message)).toEqual([
      'Thing /d: keeping it failed: NOAUTH: denied 0',
      'Thing /d: keeping it failed: NONODE: gone',
    ]);
  });

  it('an error listener that throws is a warning, and the other error listeners still hear', async () => {
    const emitter = new EventEmitter<Events>();
    const heard: unknown[] = [];
    let calls = 0;
    emitter.on('error', () => {
      calls += 1;
      throw new Error('error listener bug');
    });
    emitter.on('error', (error) => heard.push(error));
    new Reporter(emitter, undefined, 'Thing /e', 'zookeeper recipes').background(
      new Error('cause'),
      'work failed',
    );
    await warningsDelivered();
    expect(calls).toBe(1);
    expect(heard).toEqual([new Error('cause')]);
    expect(ours(WarningCode.LISTENER_ERROR).map((warning) => warning.message)).toEqual([
      "Thing /e: 'error' listener threw: error listener bug",
    ]);
  });

  it('a logger that throws falls back to the warning', async () => {
    const logger = {
      warn: () => {
        throw new Error('logger down');
      },
    };
    new Reporter(undefined, { logger }, 'Thing /f', 'zookeeper recipes').listenerThrew(
      'onError hook',
      new Error('hook bug'),
    );
    await warningsDelivered();
    expect(ours(WarningCode.LISTENER_ERROR).map((warning) => warning.message)).toEqual([
      'Thing /f: onError hook threw: hook bug',
    ]);
  });
});
