import { describe, expect, it } from 'vitest';
import { InvalidRecipeArgumentError } from '../internal-common/recipe-errors.js';
import { rejectUnknownOptions, resolveCacheOptions } from './cache-options.js';

/** The error a call throws (undefined when it returns). */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('cache options', () => {
  it('refuse a bad value naming the argument and the problem', () => {
    const cases: [options: unknown, argument: string, message: RegExp][] = [
      ['yes', 'options', /^options: must be an object \(cache options\), got yes$/],
      [
        { keepdata: false },
        'options.keepdata',
        /^options\.keepdata: is not a cache option \(known: .*keepData/,
      ],
      [{ singleNode: 'yes' }, 'singleNode', /^singleNode: must be a boolean, got yes$/],
      [{ clearOnClose: 1 }, 'clearOnClose', /^clearOnClose: must be a boolean, got 1$/],
      [{ maxDepth: -1 }, 'maxDepth', /^maxDepth: must be an integer >= 0, got -1$/],
      [{ maxDepth: 1.5 }, 'maxDepth', /^maxDepth: must be an integer >= 0, got 1.5$/],
      [
        { singleNode: true, maxDepth: 2 },
        'maxDepth',
        /^maxDepth: must be 0 \(or absent\) with singleNode: true$/,
      ],
      [
        { engine: 'magic' },
        'engine',
        /^engine: must be one of auto, persistent-watch, one-shot-watches, got magic$/,
      ],
    ];
    for (const [options, argument, message] of cases) {
      const error = thrown(() => resolveCacheOptions(options));
      expect(error, JSON.stringify(options)).toBeInstanceOf(InvalidRecipeArgumentError);
      expect((error as InvalidRecipeArgumentError).argument).toBe(argument);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('name the recipe whose option is unknown', () => {
    const error = thrown(() => rejectUnknownOptions({ maxDepth: 1 }, ['keepData'], 'NodeCache'));
    expect((error as InvalidRecipeArgumentError).argument).toBe('options.maxDepth');
    expect((error as Error).message).toBe('options.maxDepth: is not a NodeCache option (known: keepData)');
  });

  it('accept what is valid, with the defaults', () => {
    expect(resolveCacheOptions(undefined)).toMatchObject({
      maxDepth: Infinity,
      keepData: true,
      engine: 'auto',
    });
    expect(resolveCacheOptions({ singleNode: true, maxDepth: 0 })).toMatchObject({ maxDepth: 0 });
    expect(resolveCacheOptions({ maxDepth: 2, keepData: false })).toMatchObject({
      maxDepth: 2,
      keepData: false,
    });
  });
});
