/**
 * Splits a REPL line into arguments the way a shell would for simple cases: whitespace separates,
 * '...' keeps everything literally, "..." keeps spaces and honours \" and \\, a backslash outside quotes
 * escapes the next character. So `create /a "two words"` and `set /a '{"k": 1}'` work as typed.
 */
import { UsageError } from './errors.js';

/** The arguments of `line`; a UsageError for an unclosed quote. */
export function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) current += line[++i];
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inToken = true;
    } else if (char === '\\' && i + 1 < line.length) {
      current += line[++i];
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (quote) throw new UsageError(`unclosed ${quote} quote`);
  if (inToken) tokens.push(current);
  return tokens;
}
