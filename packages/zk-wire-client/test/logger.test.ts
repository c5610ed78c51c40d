/**
 * The `logger` option against a real server behind the fault proxy: connection attempts, states, a cut and
 * the reconnect, retries, a throwing watcher and the close are logged at their levels; credentials never are.
 */
import { nextState } from '@zkwire/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionLossError, connect, type Logger, RetryNTimes, retry } from '../src/index.js';
import { useProxiedServer } from './faults-helpers.js';

const zkServer = useProxiedServer();
const SECRET = 's3cr3t-pa55word';

/** A logger that records `level message` lines. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

describe('logger option', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('logs connection attempts, states, a lost connection and the close, never the credentials', async () => {
    const logger = recordingLogger();
    const zk = await connect({
      connectString: zkServer.proxy.connectString,
      sessionTimeoutMs: 10_000,
      auth: [{ scheme: 'digest', credentials: `alice:${SECRET}` }],
      logger,
    });
    cleanup = () => zk.close();
    await zk.addAuth('digest', `bob:${SECRET}`);
    const reconnected = nextState(zk, 'reconnected');
    zkServer.proxy.cut();
    await reconnected;
    zk.on('watcherError', () => {}); // heard: not logged
    await zk.close();
    const text = logger.lines.join('\n');
    expect(text).not.toContain(SECRET);
    expect(logger.lines[0]).toMatch(/^debug zookeeper: connecting to 127\.0\.0\.1:\d+$/);
    expect(logger.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^info zookeeper: connected \(session 0x[0-9a-f]+, timeout \d+ ms\)$/),
        expect.stringMatching(/^warn zookeeper: connection to 127\.0\.0\.1:\d+ ended \(/),
        expect.stringMatching(/^warn zookeeper: session 0x[0-9a-f]+ suspended/),
        expect.stringMatching(/^info zookeeper: reconnected/),
        'info zookeeper: client closed',
      ]),
    );
  });

  it('logs a throwing watcher nobody listens for, and retries', async () => {
    const logger = recordingLogger();
    const zk = await connect({ connectString: zkServer.server.connectString, logger });
    cleanup = () => zk.close();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      await zk.create('/logged');
      await zk.getData('/logged', {
        watch: () => {
          throw new Error('watcher bug');
        },
      });
      await zk.setData('/logged', 'x');
      await zk.sync('/logged');
      let attempts = 0;
      await retry(
        async () => {
          attempts++;
          if (attempts < 3) throw new ConnectionLossError();
          return 'done';
        },
        new RetryNTimes(5, 1),
        { logger },
      ).catch(() => {});
    } finally {
      process.off('warning', onWarning);
    }
    expect(logger.lines).toContain('error zookeeper: a watcher threw on dataChanged /logged: watcher bug');
    expect(logger.lines.filter((l) => l.startsWith('debug zookeeper: retry '))).toHaveLength(2);
    // The log took the place of the process warning.
    expect(warnings).toEqual([]);
  });

  it('refuses a logger that is not an object of methods', async () => {
    await expect(
      connect({ connectString: zkServer.server.connectString, logger: { info: 'yes' } as never }),
    ).rejects.toMatchObject({ argument: 'logger' });
  });
});
