/**
 * The server paths of client paths that were checked lately. Services call the same few paths again and
 * again, and checking a path walks every character of it, a large part of a multi's argument checks; a Map
 * lookup costs a small fraction of that.
 *
 * Only valid, non-sequential paths are kept (a sequential create is checked with a suffix appended, so its
 * verdict differs). Bounded: the whole table is dropped when it is full, which keeps the hot paths cheap
 * and a stream of distinct paths from growing it.
 *
 * A kept path also keeps its server path's UTF-8 bytes, made the first time a multi asks for them: a multi
 * copies them into its frame, and finding them in a second table (keyed by the server path) would cost two
 * more lookups per op.
 */

import { Buffer } from 'node:buffer';
import type { Chroot } from './paths.js';
import { validatePath } from './paths.js';

const ENTRIES = 1024;

/**
 * The UTF-8 bytes of `text` in a buffer of their own: Buffer.from would cut short ones from Node's shared
 * 8 KiB pool, and a table entry that lives for the process would keep its whole pool chunk alive.
 */
function ownUtf8(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const bytes = Buffer.allocUnsafeSlow(length);
  bytes.write(text, 0, length, 'utf8');
  return bytes;
}

/** A valid path's server path, and (once asked for) that server path's UTF-8 bytes. */
interface KnownPath {
  readonly serverPath: string;
  bytes: Buffer | undefined;
}

export class CheckedPaths {
  private readonly known = new Map<string, KnownPath>();

  constructor(private readonly chroot: Chroot) {}

  /** Validates a client path (throws InvalidArgumentError) and returns its server path. */
  serverPath(path: string, operation: string, sequential: boolean): string {
    if (!sequential) {
      const known = this.known.get(path);
      if (known !== undefined) return known.serverPath;
    }
    validatePath(path, { sequential, operation });
    const serverPath = this.chroot.toServer(path);
    if (!sequential) this.remember(path, serverPath);
    return serverPath;
  }

  /**
   * Validates a (non-sequential) client path and returns the UTF-8 bytes of its server path: the table's own
   * copy, shared by every call for that path, so a caller copies from it and never writes to it.
   */
  serverPathBytes(path: string, operation: string): Buffer {
    let known = this.known.get(path);
    if (known === undefined) {
      validatePath(path, { sequential: false, operation });
      known = this.remember(path, this.chroot.toServer(path));
    }
    return (known.bytes ??= ownUtf8(known.serverPath));
  }

  private remember(path: string, serverPath: string): KnownPath {
    if (this.known.size >= ENTRIES) this.known.clear();
    const known: KnownPath = { serverPath, bytes: undefined };
    this.known.set(path, known);
    return known;
  }
}
