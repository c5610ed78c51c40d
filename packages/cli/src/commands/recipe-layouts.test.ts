import { describe, expect, it } from 'vitest';
import { electionRecipeOf } from './leader-command.js';
import { lockKindOf } from './locks-command.js';
import { consumptionOrder, queueKindOf } from './queue-command.js';
import { createModeOf } from './write-commands.js';

describe('recipe layouts told from names', () => {
  it('locks: mutex, read-write, semaphore, none', () => {
    expect(lockKindOf([])).toBe('none');
    expect(lockKindOf(['_c_85e5106c-026e-4b80-8ec4-0c2b7ab87ae2-lock-0000000000'])).toBe('mutex');
    expect(lockKindOf(['_c_92c9cef2-0000-0000-0000-000000000000-__READ__0000000000'])).toBe('read-write');
    expect(lockKindOf(['leases', 'locks'])).toBe('semaphore');
  });

  it('elections: latch or selector', () => {
    expect(electionRecipeOf(['_c_eea001c2-0000-0000-0000-000000000000-latch-0000000000'])).toBe(
      'LeaderLatch',
    );
    expect(electionRecipeOf(['_c_81929ef4-0000-0000-0000-000000000000-lock-0000000000'])).toBe(
      'LeaderSelector',
    );
  });

  it('queues: kinds and consumption order as Curator consumes', () => {
    expect(queueKindOf(['qn-0000000000'])).toBe('simple');
    expect(queueKindOf(['queue-|1A20149314F|0000000000'])).toBe('delay');
    expect(queueKindOf(['queue-|my_id_x|0000000000'])).toBe('id');
    expect(queueKindOf(['queue-1000000050000000000'])).toBe('priority');
    expect(queueKindOf(['queue-0000000000'])).toBe('distributed');
    expect(
      consumptionOrder('delay', [
        'queue-|00000ABC|0000000002',
        'queue-|1A20149314F|0000000000',
        'queue-|00000001|0000000001',
      ]),
    ).toEqual(['queue-|00000001|0000000001', 'queue-|00000ABC|0000000002', 'queue-|1A20149314F|0000000000']);
    expect(consumptionOrder('id', ['queue-|b|0000000001', 'queue-|a|0000000002', 'foreign'])).toEqual([
      'queue-|b|0000000001',
      'queue-|a|0000000002',
    ]);
    expect(consumptionOrder('priority', ['queue-1000000050000000000', 'queue-0FFFFFFFF0000000001'])).toEqual([
      'queue-0FFFFFFFF0000000001',
      'queue-1000000050000000000',
    ]);
  });

  it("create modes from zkCli's flags", () => {
    expect(createModeOf({})).toEqual({ mode: 'persistent' });
    expect(createModeOf({ ephemeral: true, sequential: true })).toEqual({ mode: 'ephemeral-sequential' });
    expect(createModeOf({ sequential: true, ttl: '500' })).toEqual({
      mode: 'persistent-sequential-ttl',
      ttlMs: 500,
    });
    expect(createModeOf({ container: true })).toEqual({ mode: 'container' });
    expect(() => createModeOf({ container: true, ephemeral: true })).toThrow(/container/);
    expect(() => createModeOf({ ttl: '0' })).toThrow(/-t must be/);
  });
});
