import { describe, expect, it } from 'vitest';
import { runCellProcess, StartBarrier } from './run-cell.js';

const node = (script: string) => [process.execPath, '-e', script];

describe('StartBarrier', () => {
  it('gives every arrival one start time once all have arrived or withdrawn', async () => {
    const barrier = new StartBarrier(3);
    const first = barrier.arrive();
    const second = barrier.arrive();
    barrier.withdraw();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(await barrier.arrive()).toBe(a);
  });
});

describe('runCellProcess', () => {
  it('reads the result line among other output', async () => {
    const script = "console.log('noise'); console.log('@@result ' + JSON.stringify({ ok: true, ops: 3 }))";
    expect(await runCellProcess([], node(script), 20_000)).toEqual({ ok: true, ops: 3 });
  });

  it('says how a process that printed no result ended, with the tail of its stderr', async () => {
    const result = await runCellProcess([], node("console.error('boom'); process.exit(3)"), 20_000);
    expect(result).toEqual({ ok: false, error: 'no result (exit 3): boom' });
  });

  it('holds turn cells until every one is ready, then sends them all the same start time', async () => {
    const script = `
      console.log('@@ready');
      process.stdin.once('data', (d) => console.log('@@result ' + JSON.stringify({ ok: true, ops: Number(d) })));`;
    const barrier = new StartBarrier(2);
    const results = await Promise.all([
      runCellProcess([], node(script), 20_000, barrier),
      runCellProcess([], node(script), 20_000, barrier),
    ]);
    const [a, b] = results.map((r) => (r.ok ? r.ops : 0));
    expect(a).toBeGreaterThan(0);
    expect(a).toBe(b);
  });

  it('lets the others start when one ends without being ready', async () => {
    const barrier = new StartBarrier(2);
    const ready = `console.log('@@ready'); process.stdin.once('data', () => console.log('@@result {"ok":true,"ops":1}'));`;
    const [ok, failed] = await Promise.all([
      runCellProcess([], node(ready), 20_000, barrier),
      runCellProcess([], node('process.exit(1)'), 20_000, barrier),
    ]);
    expect(ok).toEqual({ ok: true, ops: 1 });
    expect(failed).toMatchObject({ ok: false, error: 'no result (exit 1, never ready for its turns): ' });
  });
});
