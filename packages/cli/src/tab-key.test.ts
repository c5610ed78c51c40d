import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type Completer, TabKeyGuard } from './tab-key.js';

const CANDIDATES = ['/repl/abc', '/repl/abd'];

/** A readline on a fake terminal whose completions wait until the test lets them go. */
function shell(options: { guarded: boolean }) {
  const input = new PassThrough() as PassThrough & { isTTY: boolean };
  input.isTTY = true;
  const output = new PassThrough();
  output.resume(); // nobody reads the echo
  const waiting: Array<() => void> = [];
  const completer: Completer = (line, callback) => {
    const word = line.split(' ').pop() ?? '';
    waiting.push(() => callback(null, [CANDIDATES.filter((path) => path.startsWith(word)), word]));
  };
  const guard = new TabKeyGuard();
  const rl = createInterface({
    input,
    output,
    terminal: true,
    completer: options.guarded ? guard.wrap(completer) : completer,
  });
  if (options.guarded) guard.attach(input, rl);
  const settle = () =>
    new Promise((resolve) => setImmediate(resolve)).then(() => new Promise((r) => setImmediate(r)));
  return {
    rl,
    /** Bytes as one read from the terminal. */
    type: async (text: string) => {
      input.write(text);
      await settle();
    },
    /** Lets the oldest waiting completion answer. */
    answer: async () => {
      waiting.shift()?.();
      await settle();
    },
    waiting: () => waiting.length,
  };
}

let opened: ReturnType<typeof shell> | undefined;
afterEach(() => opened?.rl.close());

describe('TabKeyGuard', () => {
  it('without it, readline takes a Tab that is not last in a read for a pasted TAB', async () => {
    opened = shell({ guarded: false });
    await opened.type('ls /repl/\t\t');
    expect(opened.rl.line).toBe('ls /repl/\t');
  });

  it('two Tabs in one read: the first completes, the second waits for it and completes again', async () => {
    opened = shell({ guarded: true });
    await opened.type('ls /repl/\t\t');
    expect(opened.rl.line).toBe('ls /repl/');
    expect(opened.waiting()).toBe(1); // the second Tab is held while the first loads
    await opened.answer();
    expect(opened.rl.line).toBe('ls /repl/ab');
    expect(opened.waiting()).toBe(1); // now the held Tab asks again (a double Tab: readline lists them)
    await opened.answer();
    expect(opened.rl.line).toBe('ls /repl/ab');
  });

  it('keys in the read after a Tab go into the line after its completion, in order; Tabs in a row count once', async () => {
    opened = shell({ guarded: true });
    await opened.type('ls /repl/\t\t\tc');
    expect(opened.rl.line).toBe('ls /repl/');
    await opened.answer();
    await opened.answer();
    expect(opened.waiting()).toBe(0);
    expect(opened.rl.line).toBe('ls /repl/abc');
  });
});
