/**
 * The pure decision of the protected create's recovery. The evidence that recovery works is the real-server
 * suite (test/lock-recovery.test.ts: a create whose reply is lost, and one that never reached the server).
 */
import { describe, expect, it } from 'vitest';
import { recoveryStep } from './protected-create.js';

describe('recoveryStep', () => {
  it('creates when the listing found no node of ours', () => {
    expect(recoveryStep(false, 1n, 1n)).toBe('create');
    expect(recoveryStep(false, 1n, 2n)).toBe('create');
  });

  it('adopts a node found under the session of the first attempt', () => {
    expect(recoveryStep(true, 0x1234n, 0x1234n)).toBe('adopt');
  });

  it('replaces a node found after the session changed (it belongs to a dead session)', () => {
    expect(recoveryStep(true, 1n, 2n)).toBe('replace');
  });
});
