import { describe, expect, it } from 'vitest';
import { DigestSyntaxError, formatDirectives, parseDirectives, quote } from './digest-directives.js';

describe('parseDirectives', () => {
  it('reads tokens and quoted strings, lower-cases names, keeps repeated realms in order', () => {
    const parsed = parseDirectives(
      'Realm="a", realm="b",nonce="x\\"y\\\\z" , qop="auth,auth-int",algorithm=md5-sess',
    );
    expect(parsed.get('realm')).toEqual(['a', 'b']);
    expect(parsed.get('nonce')).toEqual(['x"y\\z']);
    expect(parsed.get('qop')).toEqual(['auth,auth-int']);
    expect(parsed.get('algorithm')).toEqual(['md5-sess']);
  });

  it('accepts empty list elements and surrounding white space', () => {
    expect([...parseDirectives(' ,a=1,, b = "2" ,').entries()]).toEqual([
      ['a', ['1']],
      ['b', ['2']],
    ]);
    expect(parseDirectives('').size).toBe(0);
  });

  it.each([
    ['a missing =', 'nonce'],
    ['an unterminated quote', 'nonce="abc'],
    ['a dangling escape', 'nonce="abc\\'],
    ['junk after a value', 'nonce="a"b=1'],
    ['no name', '="x"'],
  ])('throws DigestSyntaxError on %s', (_name, input) => {
    expect(() => parseDirectives(input)).toThrow(DigestSyntaxError);
  });
});

describe('formatDirectives', () => {
  it('quotes and escapes only the quoted values, and round-trips through the parser', () => {
    const written = formatDirectives([
      ['username', 'a"b\\c', true],
      ['nc', '00000001', false],
    ]);
    expect(written).toBe('username="a\\"b\\\\c",nc=00000001');
    expect(parseDirectives(written).get('username')).toEqual(['a"b\\c']);
    expect(quote('plain')).toBe('"plain"');
  });
});
