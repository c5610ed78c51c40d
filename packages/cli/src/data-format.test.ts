import { describe, expect, it } from 'vitest';
import { dataAsText, parseDataArgument, showData } from './data-format.js';
import { toJson } from './output.js';

describe('data shown as text or hex', () => {
  it('prints valid, printable UTF-8 as text (tabs and newlines included)', () => {
    expect(dataAsText(Buffer.from('héllo\twörld\n'))).toBe('héllo\twörld\n');
    expect(showData(Buffer.from('{"a":1}'))).toEqual({ encoding: 'utf8', value: '{"a":1}' });
  });

  it('prints invalid UTF-8 and control characters as 0x hex, null as null', () => {
    expect(dataAsText(Buffer.from([0xff, 0xfe]))).toBe('0xfffe');
    expect(dataAsText(Buffer.from([0x41, 0x00, 0x42]))).toBe('0x410042');
    expect(dataAsText(Buffer.from('\u001b[31mred'))).toBe('0x1b5b33316d726564');
    expect(dataAsText(null)).toBe('null');
    expect(dataAsText(Buffer.alloc(0))).toBe('');
  });

  it('reads 0x-prefixed even-length hex arguments as bytes, everything else as UTF-8', () => {
    expect(parseDataArgument('0x00ff')).toEqual(Buffer.from([0, 255]));
    expect(parseDataArgument('0x0')).toEqual(Buffer.from('0x0'));
    expect(parseDataArgument('plain')).toEqual(Buffer.from('plain'));
    expect(parseDataArgument(undefined)).toBeNull();
  });

  it('serialises bigints and buffers in JSON output', () => {
    expect(toJson({ id: 2n ** 63n, data: Buffer.from([1, 2]) })).toBe(
      '{"id":"9223372036854775808","data":{"encoding":"hex","value":"0102"}}',
    );
  });
});
