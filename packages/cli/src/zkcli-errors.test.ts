import {
  BadVersionError,
  ConnectionLossError,
  NoAuthError,
  NodeExistsError,
  NoNodeError,
  NotEmptyError,
  NoWatcherError,
} from '@zkwire/zk-wire-client';
import { describe, expect, it } from 'vitest';
import { zkCliMessage } from './zkcli-errors.js';

describe('zkCliMessage', () => {
  it("words the errors zkCli names as zkCli does, with the node's path", () => {
    expect(zkCliMessage(new NoNodeError({ path: '/x', operation: 'getData' }))).toBe(
      'Node does not exist: /x',
    );
    expect(zkCliMessage(new NodeExistsError({ path: '/x', operation: 'create' }))).toBe(
      'Node already exists: /x',
    );
    expect(zkCliMessage(new NotEmptyError({ path: '/x', operation: 'delete' }))).toBe('Node not empty: /x');
    expect(zkCliMessage(new NoAuthError({ path: '/x', operation: 'getData' }))).toBe(
      'Insufficient permission : /x',
    );
    expect(zkCliMessage(new BadVersionError({ path: '/x', operation: 'setData' }))).toBe(
      'version No is not valid : /x',
    );
  });

  it('leaves the rest to our own wording: other codes, no path, not a ZooKeeper error', () => {
    expect(zkCliMessage(new NoWatcherError({ path: '/x', operation: 'removeWatches' }))).toBeUndefined();
    expect(zkCliMessage(new ConnectionLossError({ path: '/x', operation: 'getData' }))).toBeUndefined();
    expect(zkCliMessage(new NoNodeError({ operation: 'multi' }))).toBeUndefined();
    expect(zkCliMessage(new Error('Node does not exist'))).toBeUndefined();
  });
});
