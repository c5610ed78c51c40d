import { describe, expect, it } from 'vitest';
import { ItemIterator, type LoopStarter } from './item-iterator.js';
import { ConsumerStopped } from './item-processor.js';

/** A loop that delivers `items` in order and records how each delivery ended. */
function scriptedLoop(items: string[], outcomes: string[]): LoopStarter<string> {
  return async (deliver, stopRequested) => {
    for (const [index, item] of items.entries()) {
      if (stopRequested()) {
        outcomes.push(`stop-before-${item}`);
        return;
      }
      try {
        await deliver(item, { path: `/q/${item}`, name: item, index, batchSize: items.length });
        outcomes.push(`ack-${item}`);
      } catch (error) {
        outcomes.push(error instanceof ConsumerStopped ? `stopped-${item}-${error.delivered}` : 'error');
        return;
      }
    }
  };
}

describe('ItemIterator', () => {
  it('acknowledges an item when the next one is asked for, and ends with the loop', async () => {
    const outcomes: string[] = [];
    const seen: string[] = [];
    for await (const item of new ItemIterator(
      scriptedLoop(['a', 'b'], outcomes),
      new AbortController().signal,
    )) {
      seen.push(item);
    }
    expect(seen).toEqual(['a', 'b']);
    expect(outcomes).toEqual(['ack-a', 'ack-b']);
  });

  it('a break stops the delivery in hand (delivered) and the loop', async () => {
    const outcomes: string[] = [];
    for await (const item of new ItemIterator(
      scriptedLoop(['a', 'b', 'c'], outcomes),
      new AbortController().signal,
    )) {
      if (item === 'b') break;
    }
    expect(outcomes).toEqual(['ack-a', 'stopped-b-true']);
  });

  it('an abort while the body holds an item releases it without waiting for next()', async () => {
    const outcomes: string[] = [];
    const controller = new AbortController();
    const iterator = new ItemIterator(scriptedLoop(['a', 'b'], outcomes), controller.signal);
    const first = await iterator.next();
    expect(first.value).toBe('a');
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outcomes).toEqual(['stopped-a-true']);
    expect((await iterator.next()).done).toBe(true);
  });

  it('rejects next() with the error that ended the loop', async () => {
    const failing: LoopStarter<string> = async () => {
      throw new Error('session expired');
    };
    const iterator = new ItemIterator(failing, new AbortController().signal);
    await expect(iterator.next()).rejects.toThrow('session expired');
    expect((await iterator.next()).done).toBe(true);
  });
});
