import { describe, expect, it } from 'vitest';
import {
  ConnectionLossError,
  errorFromCode,
  errorInfo,
  isConnectionLoss,
  isNoNode,
  MultiError,
  NoNodeError,
  OperationTimeoutError,
  UnsupportedByServerError,
  ZooKeeperError,
} from './errors.js';

describe('errors', () => {
  it('builds the class of each condition callers branch on, with code, errno, path and operation', () => {
    const error = errorFromCode(-101, { path: '/a', operation: 'getData' });
    expect(error).toBeInstanceOf(NoNodeError);
    expect(error).toBeInstanceOf(ZooKeeperError);
    expect(error).toMatchObject({
      code: 'NONODE',
      errno: -101,
      path: '/a',
      operation: 'getData',
      name: 'NoNodeError',
    });
    expect(error.message).toBe('No node (getData /a)');
    expect(isNoNode(error)).toBe(true);
    expect(isConnectionLoss(error)).toBe(false);
  });

  it('maps codes without a class to the base class, and unknown codes to UNKNOWN', () => {
    expect(errorFromCode(-127)).toMatchObject({ code: 'THROTTLEDOP', retryable: true });
    expect(errorFromCode(-999)).toMatchObject({ code: 'UNKNOWN', errno: -999 });
    expect(errorInfo(-112).retryable).toBe(true);
  });

  it('recognises instances of another copy by the Symbol.for marker', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('zkwire.ZooKeeperError')]: true,
      code: 'CONNECTIONLOSS',
    });
    expect(ZooKeeperError.isInstance(foreign)).toBe(true);
    expect(isConnectionLoss(foreign)).toBe(true);
    expect(ZooKeeperError.isInstance(new Error('plain'))).toBe(false);
    expect(ZooKeeperError.isInstance(null)).toBe(false);
  });

  it('keeps the cause', () => {
    const cause = new Error('socket closed');
    expect(new ConnectionLossError({ cause }).cause).toBe(cause);
  });

  it('names the version a feature needs', () => {
    const error = new UnsupportedByServerError('3.7.0', '3.6.3', { operation: 'whoAmI' });
    expect(error.message).toBe('Requires ZooKeeper 3.7.0 or later (server is 3.6.3) (whoAmI)');
    expect(new OperationTimeoutError().code).toBe('OPERATIONTIMEOUT');
  });

  it('MultiError carries each op outcome and the failing op', () => {
    const results = [null, errorFromCode(-103, { path: '/a' }), errorFromCode(-2)];
    const error = new MultiError(results, 1);
    expect(error).toMatchObject({ code: 'BADVERSION', failedIndex: 1, path: '/a' });
    expect(error.failed).toBe(results[1]);
  });
});
