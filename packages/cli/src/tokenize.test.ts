import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('splits on whitespace and keeps quoted text together', () => {
    expect(tokenize('  create   /a "two words"  ')).toEqual(['create', '/a', 'two words']);
    expect(tokenize(`set /a '{"k": 1}'`)).toEqual(['set', '/a', '{"k": 1}']);
    expect(tokenize('set /a "say \\"hi\\" \\\\ bye"')).toEqual(['set', '/a', 'say "hi" \\ bye']);
    expect(tokenize('set /a one\\ two')).toEqual(['set', '/a', 'one two']);
    expect(tokenize('create /a ""')).toEqual(['create', '/a', '']);
  });

  it('refuses an unclosed quote with a UsageError', () => {
    expect(() => tokenize('set /a "open')).toThrow(UsageError);
    expect(() => tokenize("set /a 'open")).toThrow(/unclosed ' quote/);
  });
});
