/**
 * The `name=value, name="quoted value"` lists of DIGEST-MD5 (RFC 2831 §7.1: `#auth-param`), parsed and
 * written. Pure functions, no I/O.
 */

/** The mechanism name. */
export const DIGEST_MD5 = 'DIGEST-MD5';

/** A malformed DIGEST-MD5 token from the server. The message never quotes the token (it may echo secrets). */
export class DigestSyntaxError extends Error {
  override readonly name = 'DigestSyntaxError';
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/**
 * Parses a directive list into name (lower-cased) → values in order of appearance (RFC 2831 lets `realm`
 * repeat). Empty list elements (`a=1,,b=2`) are allowed, as in the RFC's `#rule`. Throws DigestSyntaxError.
 */
export function parseDirectives(text: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  let i = 0;
  const skipSpace = () => {
    while (isSpace(text[i])) i++;
  };
  while (i < text.length) {
    skipSpace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (i >= text.length) break;
    const nameStart = i;
    while (i < text.length && TOKEN_CHAR.test(text[i]!)) i++;
    if (i === nameStart) throw new DigestSyntaxError(`expected a directive name at offset ${i}`);
    const name = text.slice(nameStart, i).toLowerCase();
    skipSpace();
    if (text[i] !== '=') throw new DigestSyntaxError(`expected '=' after directive "${name}"`);
    i++;
    skipSpace();
    let value = '';
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < text.length) {
        const c = text[i++]!;
        if (c === '"') {
          closed = true;
          break;
        }
        if (c === '\\') {
          if (i >= text.length) break;
          value += text[i++];
        } else {
          value += c;
        }
      }
      if (!closed) throw new DigestSyntaxError(`unterminated quoted value of directive "${name}"`);
    } else {
      const valueStart = i;
      while (i < text.length && TOKEN_CHAR.test(text[i]!)) i++;
      value = text.slice(valueStart, i);
    }
    const values = directives.get(name);
    if (values) values.push(value);
    else directives.set(name, [value]);
    skipSpace();
    if (i < text.length && text[i] !== ',')
      throw new DigestSyntaxError(`expected ',' after directive "${name}"`);
  }
  return directives;
}

/** `"value"` with `"` and `\` escaped (RFC 2831 quoted-string). */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Writes directives in the given order; `quoted` values are quoted, the others written as tokens. */
export function formatDirectives(entries: readonly [name: string, value: string, quoted: boolean][]): string {
  return entries.map(([name, value, quoted]) => `${name}=${quoted ? quote(value) : value}`).join(',');
}
