/**
 * Znode paths: validation (Java `PathUtils.validatePath`, wire-protocol.md §9.2), join/split helpers, and the
 * chroot mapping between client paths and server paths (§9.3).
 */
import type { ChrootMapping } from './chroot-types.js';
import { InvalidArgumentError } from './errors.js';

/**
 * Why a path is invalid, in words (`must not have an empty segment (index 3)`), or null when it is valid: the
 * one implementation of the path rules, which @zkwire/common's checks read through `paths.problem`.
 */
export function pathProblem(path: unknown, sequential = false): string | null {
  if (typeof path !== 'string') return 'must be a string';
  if (path.length === 0) return 'must not be empty';
  if (path.charCodeAt(0) !== 0x2f) return 'must start with "/"';
  // A sequential create gets a suffix from the server, so it is checked with one appended (Java does the same).
  const p = sequential ? `${path}1` : path;
  if (p.length === 1) return null;
  if (p.charCodeAt(p.length - 1) === 0x2f) return 'must not end with "/"';
  let segmentStart = 1;
  for (let i = 1; i <= p.length; i++) {
    const c = i < p.length ? p.charCodeAt(i) : 0x2f;
    if (c === 0x2f) {
      const length = i - segmentStart;
      if (length === 0) return `must not have an empty segment (index ${i})`;
      if (length === 1 && p.charCodeAt(segmentStart) === 0x2e) return 'must not have a "." segment';
      if (length === 2 && p.charCodeAt(segmentStart) === 0x2e && p.charCodeAt(segmentStart + 1) === 0x2e) {
        return 'must not have a ".." segment';
      }
      segmentStart = i + 1;
      continue;
    }
    if (c === 0) return `must not hold the null character U+0000 (index ${i})`;
    if (isRefusedCharacter(c)) {
      return `must not hold the character U+${c.toString(16).padStart(4, '0').toUpperCase()} (index ${i})`;
    }
  }
  return null;
}

/**
 * A character ZooKeeper refuses in a path besides the null character (Java's PathUtils): the other C0 and the
 * C1 controls, DEL, surrogates and the private use area, and U+FFF0 to U+FFFF.
 */
function isRefusedCharacter(c: number): boolean {
  return (
    (c > 0 && c <= 0x1f) ||
    (c >= 0x7f && c <= 0x9f) ||
    (c >= 0xd800 && c <= 0xf8ff) ||
    (c >= 0xfff0 && c <= 0xffff)
  );
}

/** Throws {@link InvalidArgumentError} (argument `path`) when the path is not a valid znode path. */
export function validatePath(
  path: unknown,
  options: { sequential?: boolean; operation?: string } = {},
): void {
  const problem = pathProblem(path, options.sequential === true);
  if (problem !== null) {
    throw new InvalidArgumentError('path', `${JSON.stringify(path)} ${problem}`, {
      operation: options.operation,
      path: typeof path === 'string' ? path : undefined,
    });
  }
}

/** Joins segments or partial paths into one absolute path; empty parts and duplicate slashes are dropped. */
export function join(...parts: string[]): string {
  const segments: string[] = [];
  for (const part of parts) for (const s of part.split('/')) if (s !== '') segments.push(s);
  return `/${segments.join('/')}`;
}

/** Splits a path into its segments: `/a/b` gives `['a', 'b']`, `/` gives `[]`. */
export function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** The parent path: `/a/b` gives `/a`, `/a` gives `/`, `/` gives `/`. */
export function parent(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** The last segment: `/a/b` gives `b`, `/` gives ``. */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

const SEQUENCE_SUFFIX = /^(?:\d{10}|-\d{9})$/;

/**
 * The sequence number a server appended to a sequential node's name (`%010d`, §9.1), or null. Like Curator it
 * reads the last ten characters; past the int wrap (below -999999999) the number cannot be told apart.
 */
export function sequenceOf(name: string): number | null {
  const suffix = name.slice(-10);
  return SEQUENCE_SUFFIX.test(suffix) ? Number(suffix) : null;
}

/**
 * The chroot of a connect string. Client paths are mapped to server paths on the way out and back on the way
 * in; an empty chroot (none, or `/`) maps every path to itself.
 */
export class Chroot implements ChrootMapping {
  /** The server path of the client's `/`, or '' for no chroot. */
  readonly prefix: string;

  constructor(chroot: string | undefined) {
    if (chroot === undefined || chroot === '' || chroot === '/') {
      this.prefix = '';
      return;
    }
    const problem = pathProblem(chroot);
    if (problem !== null)
      throw new InvalidArgumentError('connectString', `chroot ${JSON.stringify(chroot)} ${problem}`);
    this.prefix = chroot;
  }

  /** Client path to server path: `/x` → `/app/x`, `/` → `/app`. */
  toServer(path: string): string {
    if (this.prefix === '') return path;
    return path === '/' ? this.prefix : this.prefix + path;
  }

  /**
   * Server path to client path. The chroot itself becomes `/`; paths outside the chroot (for example under
   * `/zookeeper/`) are passed through unchanged, as the Java client does.
   */
  toClient(serverPath: string): string {
    const prefix = this.prefix;
    if (prefix === '') return serverPath;
    if (serverPath === prefix) return '/';
    if (serverPath.startsWith(prefix) && serverPath.charCodeAt(prefix.length) === 0x2f) {
      return serverPath.slice(prefix.length);
    }
    return serverPath;
  }

  /**
   * Why a NONODE answer to `operation` at the client path `path` can only mean that the chroot itself is
   * missing (a call on `/`, or a create directly under it), in words; undefined for any other call, and
   * without a chroot.
   */
  missingDetail(operation: string, path: string | undefined): string | undefined {
    if (this.prefix === '' || path === undefined) return undefined;
    const onRoot = path === '/';
    const underRoot = operation === 'create' && path.lastIndexOf('/') === 0 && path.length > 1;
    if (!onRoot && !underRoot) return undefined;
    return `the chroot ${this.prefix} does not exist (create it, or connect with ensureChroot: true)`;
  }
}

/** The server path of a client path under `chroot` (`''` or `'/'` for none). */
export function withChroot(chroot: string, path: string): string {
  return new Chroot(chroot).toServer(path);
}

/** The client path of a server path under `chroot`; paths outside it come back unchanged. */
export function withoutChroot(chroot: string, serverPath: string): string {
  return new Chroot(chroot).toClient(serverPath);
}

/** Path helpers, as one object (see docs/contracts.md). */
export const paths = {
  join,
  split,
  parent,
  basename,
  sequenceOf,
  withChroot,
  withoutChroot,
  /** Throws InvalidArgumentError when `path` is not valid; `sequential` allows a trailing `/`. */
  validate(path: string, options: { sequential?: boolean } = {}): void {
    validatePath(path, options);
  },
  /** True when `path` is valid. */
  isValid(path: string, options: { sequential?: boolean } = {}): boolean {
    return pathProblem(path, options.sequential === true) === null;
  },
  /**
   * Why `path` is not a valid znode path, in words (`must not have an empty segment (index 3)`), or null
   * when it is one; the reason {@link paths.validate} would give.
   */
  problem(path: unknown, options: { sequential?: boolean } = {}): string | null {
    return pathProblem(path, options.sequential === true);
  },
} as const;
