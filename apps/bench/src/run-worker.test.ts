import { describe, expect, it } from 'vitest';
import { runWorker } from './run-worker.js';
import { StartBarrier } from './start-barrier.js';
import { READY_MARKER, RESULT_MARKER } from './types.js';

/** A worker that is ready after `readyAfterMs`, reads its start line and reports it with when it read it. */
function turnWorker(readyAfterMs: number): string[] {
  const script = `
    setTimeout(() => {
      process.stdout.write(${JSON.stringify(`${READY_MARKER}\n`)});
      let text = '';
      process.stdin.on('data', (c) => {
        text += c;
        if (!text.includes('\\n')) return;
        const startAt = Number(text.trim());
        process.stdout.write(${JSON.stringify(RESULT_MARKER)} + JSON.stringify({ ok: true, ops: startAt, elapsedMs: Date.now(), cpuUs: 0, errors: 0 }) + '\\n', () => process.exit(0));
      });
    }, ${readyAfterMs});`;
  return [process.execPath, '-e', script];
}

describe('runWorker with a start barrier', () => {
  it('starts every worker of a case at one time, after the slowest is ready', async () => {
    const barrier = new StartBarrier(2, 100);
    const turnStart = { barrier, readyTimeoutMs: 20_000 };
    const before = Date.now();
    const [fast, slow] = await Promise.all([
      runWorker([], turnWorker(0), 20_000, turnStart),
      runWorker([], turnWorker(700), 20_000, turnStart),
    ]);
    if (!fast.ok || !slow.ok) throw new Error(`a worker failed: ${JSON.stringify([fast, slow])}`);
    // both got the same start time (reported as ops), set after the slow one said it was ready
    expect(fast.ops).toBe(slow.ops);
    expect(fast.ops).toBeGreaterThanOrEqual(before + 700 + 100);
    // and neither had it before the slow one was ready
    expect(fast.elapsedMs).toBeGreaterThanOrEqual(before + 700);
  });

  /** A ready worker and `other` in one case: both results, once the barrier has let the ready one go. */
  async function besideReadyWorker(other: string[], readyTimeoutMs: number) {
    const turnStart = { barrier: new StartBarrier(2, 0), readyTimeoutMs };
    const [ready, result] = await Promise.all([
      runWorker([], turnWorker(0), 20_000, turnStart),
      runWorker([], other, 20_000, turnStart),
    ]);
    return { ready, other: result };
  }

  it('lets the others go when a worker dies before it is ready, and reports the one that died', async () => {
    const { ready, other: dead } = await besideReadyWorker(
      [process.execPath, '-e', 'process.exit(3)'],
      20_000,
    );
    expect(ready.ok).toBe(true);
    expect(dead).toMatchObject({ ok: false });
    expect(dead.ok ? '' : dead.error).toMatch(/exit 3, never ready for its turns/);
  });

  it('kills a worker that is not ready in time, and the others start without it', async () => {
    const hangs = [process.execPath, '-e', 'setTimeout(() => {}, 60_000)'];
    const { ready, other: hung } = await besideReadyWorker(hangs, 500);
    expect(ready.ok).toBe(true);
    expect(hung.ok ? '' : hung.error).toMatch(/SIGKILL \(timeout\), never ready/);
  });
});
