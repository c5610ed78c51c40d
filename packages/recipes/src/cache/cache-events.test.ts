import { describe, expect, it } from 'vitest';
import { RecipeError } from '../internal-common/recipe-errors.js';
import { type CacheEvent, EventBuffer } from './cache-events.js';

const created = (n: number): CacheEvent => ({
  type: 'created',
  path: `/n${n}`,
  oldData: undefined,
  data: { path: `/n${n}`, stat: {} as never, data: null },
});
const paths = (events: IteratorResult<CacheEvent>[]) =>
  events.map((r) => (r.done ? 'done' : r.value.type === 'initialized' ? 'init' : r.value.path));

describe('EventBuffer (the bounded queue behind cache.events())', () => {
  it('delivers in order across the ring wrap, and hands an event straight to a waiting consumer', async () => {
    let returned = 0;
    const buffer = new EventBuffer(3, () => returned++);
    const waiting = buffer.next();
    buffer.push(created(0));
    expect(paths([await waiting])).toEqual(['/n0']);
    for (let round = 1; round < 10; round += 2) {
      buffer.push(created(round));
      buffer.push(created(round + 1));
      expect(paths([await buffer.next(), await buffer.next()])).toEqual([`/n${round}`, `/n${round + 1}`]);
    }
    buffer.end();
    expect(paths([await buffer.next()])).toEqual(['done']);
    expect(returned).toBe(0);
  });

  it('on overflow delivers what it holds, then throws EVENTS_OVERFLOW, and unsubscribes at once', async () => {
    let returned = 0;
    const buffer = new EventBuffer(2, () => returned++);
    for (let i = 0; i < 5; i++) buffer.push(created(i));
    expect(returned).toBe(1); // the cache stops feeding it at the first event that did not fit
    expect(paths([await buffer.next(), await buffer.next()])).toEqual(['/n0', '/n1']);
    const error = await buffer.next().catch((e: unknown) => e);
    expect(RecipeError.isInstance(error) && error.code).toBe('EVENTS_OVERFLOW');
    expect(paths([await buffer.next()])).toEqual(['done']);
  });

  it('return() drops what is buffered and unsubscribes once', async () => {
    let returned = 0;
    const buffer = new EventBuffer(4, () => returned++);
    buffer.push(created(1));
    await buffer.return();
    await buffer.return();
    buffer.push(created(2));
    expect(paths([await buffer.next()])).toEqual(['done']);
    expect(returned).toBe(1);
  });

  it('refuses a bad buffer size', () => {
    for (const bufferSize of [0, -1, 1.5, Number.NaN, '10']) {
      expect(() => EventBuffer.capacityOf({ bufferSize } as never)).toThrow(/bufferSize/);
    }
  });
});
