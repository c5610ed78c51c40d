import { describe, expect, it } from 'vitest';
import { InvalidModelArgumentError, ModelEventsOverflowError } from './errors.js';
import { type ModelCacheEvent, ModelEventBuffer } from './model-events.js';

const stat = {} as ModelCacheEvent<number>['stat'];
const event = (n: number): ModelCacheEvent<number> => ({ type: 'created', path: `/n${n}`, stat, model: n });

describe('ModelEventBuffer', () => {
  it('delivers events in order, straight to a waiting consumer or from the buffer', async () => {
    let ended = 0;
    const buffer = new ModelEventBuffer<number>({ bufferSize: 4 }, () => ended++);
    const waiting = buffer.next();
    buffer.push(event(1));
    expect((await waiting).value?.model).toBe(1);
    buffer.push(event(2));
    buffer.push(event(3));
    buffer.end();
    const rest: number[] = [];
    for await (const e of buffer) rest.push(e.model);
    expect(rest).toEqual([2, 3]);
    expect(ended).toBe(1);
  });

  it('fails with EVENTS_OVERFLOW after the buffered events when a consumer falls too far behind', async () => {
    const buffer = new ModelEventBuffer<number>({ bufferSize: 2 }, () => {});
    for (let n = 1; n <= 3; n++) buffer.push(event(n));
    expect((await buffer.next()).value?.model).toBe(1);
    expect((await buffer.next()).value?.model).toBe(2);
    await expect(buffer.next()).rejects.toThrow(ModelEventsOverflowError);
    expect((await buffer.next()).done).toBe(true);
  });

  it('refuses a bad buffer size', () => {
    expect(() => new ModelEventBuffer({ bufferSize: 0 }, () => {})).toThrow(InvalidModelArgumentError);
  });
});
