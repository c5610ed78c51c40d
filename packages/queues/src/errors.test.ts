import { describe, expect, it } from 'vitest';
import {
  CorruptQueueItemError,
  isQueueError,
  QueueArgumentError,
  QueueError,
  QueueErrorCode,
} from './errors.js';

describe('QueueError', () => {
  it('keeps its subclasses, names and codes, and instanceof', () => {
    const samples: [QueueError, string, string][] = [
      [new QueueError(QueueErrorCode.QUEUE_CLOSED, 'closed'), 'QueueError', 'QUEUE_CLOSED'],
      [
        new CorruptQueueItemError(QueueErrorCode.CORRUPT_ITEM, 'bad', { path: '/q/x' }),
        'CorruptQueueItemError',
        'CORRUPT_ITEM',
      ],
      [new QueueArgumentError('path', 'must start with "/"'), 'QueueArgumentError', 'INVALID_ARGUMENT'],
    ];
    for (const [error, name, code] of samples) {
      expect(error).toBeInstanceOf(QueueError);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(QueueError.isInstance(error)).toBe(true);
      expect(isQueueError(error, error.code)).toBe(true);
    }
  });

  it('recognises an error of another copy of the package by its marker, and nothing else', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('zkwire.queues.error')]: true });
    expect(QueueError.isInstance(foreign)).toBe(true);
    expect(QueueError.isInstance(new Error('x'))).toBe(false);
    expect(QueueError.isInstance({ code: 'QUEUE_CLOSED' })).toBe(false);
  });

  it('names the refused argument', () => {
    const error = new QueueArgumentError('path', 'must start with "/"');
    expect(error.argument).toBe('path');
    expect(error.message).toBe('path: must start with "/"');
  });
});
