import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { callRecorder, nextEvent, nextState } from './events.js';

describe('nextEvent', () => {
  it('resolves with the arguments of the next event and removes its listener', async () => {
    const emitter = new EventEmitter();
    const next = nextEvent<[string, number]>(emitter, 'change');
    emitter.emit('change', 'a', 1);
    emitter.emit('change', 'b', 2);
    expect(await next).toEqual(['a', 1]);
    expect(emitter.listenerCount('change')).toBe(0);
  });

  it('waits for the first event that matches', async () => {
    const emitter = new EventEmitter();
    const next = nextEvent<[number]>(emitter, 'n', (n) => n > 1);
    emitter.emit('n', 1);
    expect(emitter.listenerCount('n')).toBe(1);
    emitter.emit('n', 2);
    expect(await next).toEqual([2]);
    expect(emitter.listenerCount('n')).toBe(0);
  });

  it('refuses bad arguments before listening', () => {
    const emitter = new EventEmitter();
    expect(() => nextEvent(emitter, '')).toThrow(TypeError);
    expect(() => nextEvent(emitter, 'x', 'nope' as unknown as () => boolean)).toThrow(TypeError);
    expect(emitter.eventNames()).toEqual([]);
  });
});

describe('nextState', () => {
  it('resolves at the next state event equal to the wanted one, not at others', async () => {
    const emitter = new EventEmitter<{ state: [string] }>();
    let reached = false;
    const next = nextState(emitter, 'connected').then(() => {
      reached = true;
    });
    emitter.emit('state', 'suspended');
    await Promise.resolve();
    expect(reached).toBe(false);
    emitter.emit('state', 'connected');
    await next;
    expect(reached).toBe(true);
    expect(emitter.listenerCount('state')).toBe(0);
  });
});

describe('callRecorder', () => {
  it('records every call and resolves first with the first', async () => {
    const recorder = callRecorder<string>();
    recorder.listener('one');
    recorder.listener('two');
    expect(await recorder.first).toBe('one');
    expect(recorder.calls).toEqual(['one', 'two']);
  });
});
