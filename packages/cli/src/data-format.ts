/**
 * How znode data is shown: as text when the bytes are valid UTF-8 without control characters (other than
 * tab and newlines), as hex otherwise, so binary data never garbles the terminal. `null` data (no bytes at
 * all on the wire) is shown as zkCli shows it: `null`.
 */

const decoder = new TextDecoder('utf-8', { fatal: true });
/** C0 controls other than tab and newlines, DEL and C1 controls: valid UTF-8, but not for printing raw. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x09 || code === 0x0a || code === 0x0d) continue;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** Data as the CLI shows and serialises it. */
export interface ShownData {
  encoding: 'utf8' | 'hex' | 'null';
  /** The text, or the hex digits (no separators), or `null`. */
  value: string | null;
}

/** Decides how to show `data`: UTF-8 text when it is printable, hex otherwise. */
export function showData(data: Uint8Array | null | undefined): ShownData {
  if (data === null || data === undefined) return { encoding: 'null', value: null };
  try {
    const text = decoder.decode(data);
    if (!hasControlCharacters(text)) return { encoding: 'utf8', value: text };
  } catch {
    // not UTF-8: fall through to hex
  }
  return {
    encoding: 'hex',
    value: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('hex'),
  };
}

/** The one-line text form: the text itself, `0x` + hex digits, or `null`. */
export function dataAsText(data: Uint8Array | null | undefined): string {
  const shown = showData(data);
  if (shown.encoding === 'null') return 'null';
  return shown.encoding === 'hex' ? `0x${shown.value}` : (shown.value as string);
}

/**
 * Data typed on a command line. `0x` followed by an even number of hex digits is read as bytes (the same
 * form `get` prints binary data in), anything else as UTF-8 text.
 */
export function parseDataArgument(text: string | undefined): Buffer | null {
  if (text === undefined) return null;
  if (/^0x([0-9a-fA-F]{2})+$/.test(text)) return Buffer.from(text.slice(2), 'hex');
  return Buffer.from(text, 'utf8');
}
