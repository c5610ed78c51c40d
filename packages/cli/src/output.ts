/**
 * Where command results go. A command hands over a value and a way to render it as text; with `--json` the
 * value is printed as one line of JSON instead (bigints as strings, buffers as their shown form), so scripts
 * get the same data the person sees.
 */
import type { Writable } from 'node:stream';
import pc from 'picocolors';
import { showData } from './data-format.js';

/** Terminal colours, off when the output is not a terminal or NO_COLOR is set. */
export type Colors = ReturnType<typeof pc.createColors>;

/** The printing side of a command run. */
export class Output {
  /** Colour functions; plain identity functions when colours are off. */
  readonly colors: Colors;

  constructor(
    private readonly stdout: Writable,
    private readonly stderr: Writable,
    /** Print results as JSON lines instead of text. */
    readonly json: boolean,
    private readonly useColor: boolean,
  ) {
    this.colors = pc.createColors(useColor && !json);
  }

  /** The same streams with JSON on (a command's own `--json`). */
  withJson(json: boolean): Output {
    return json === this.json ? this : new Output(this.stdout, this.stderr, json, this.useColor);
  }

  /** Prints a result: `render()`'s lines as text, or `value` as one JSON line with `--json`. */
  result(value: unknown, render: () => string | string[]): void {
    if (this.json) {
      this.stdout.write(`${toJson(value)}\n`);
      return;
    }
    const text = render();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length > 0) this.stdout.write(`${lines.join('\n')}\n`);
  }

  /** A line of plain text (REPL messages, help); skipped with `--json`. */
  info(text: string): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** An error line on stderr (as JSON `{ error, code }` with `--json`). */
  error(message: string, code: string): void {
    if (this.json) this.stderr.write(`${toJson({ error: message, code })}\n`);
    else this.stderr.write(`${this.colors.red(message)}\n`);
  }

  /** Raw text on stdout, as given (commander's help). */
  raw(text: string): void {
    this.stdout.write(text);
  }

  /** Raw text on stderr, as given (commander's usage errors). */
  rawError(text: string): void {
    this.stderr.write(text);
  }
}

/** JSON with bigints as decimal strings and byte arrays as their shown form ({ encoding, value }). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return item.toString();
    if (item instanceof Uint8Array) return showData(item);
    // JSON.stringify calls Buffer's toJSON before the replacer sees it.
    if (isSerializedBuffer(item)) return showData(Buffer.from(item.data));
    return item;
  });
}

function isSerializedBuffer(item: unknown): item is { type: 'Buffer'; data: number[] } {
  return (
    typeof item === 'object' &&
    item !== null &&
    (item as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((item as { data?: unknown }).data)
  );
}
