/**
 * ZPath: a znode path whose segments may be parameters (Curator's `ZPath.parseWithIds`): `{name}` or the
 * anonymous `{}`. A literal template gives the parameter names as a type, so `resolve` is checked by the
 * compiler: `zpath('/tenants/{id}/quota').resolve({ id: 't1' })` compiles, `.resolve({ tenant: 't1' })` does
 * not. Every resolved value is checked at run time as exactly one znode name.
 */
import { BoundedMemo } from './bounded-memo.js';
import { InvalidModelArgumentError, UnresolvedPathError } from './errors.js';
import { checkNodeName, isNodeName, type NodeName, type NodeNameValue, nodeNameOf } from './node-name.js';

// ---- types: parameter names from a literal template ---------------------------------------------------

type SplitSegments<S extends string> = S extends `${infer Head}/${infer Tail}`
  ? [Head, ...SplitSegments<Tail>]
  : [S];

/** `[name]` when the segment is a parameter (`{name}`, or `{}` giving `''`), else `[]`. */
export type SegmentParameter<S extends string> = S extends `{${infer Name}}` ? [Name] : [];

type CollectParameters<T extends string[]> = T extends [infer H extends string, ...infer R extends string[]]
  ? [...SegmentParameter<H>, ...CollectParameters<R>]
  : [];

/**
 * The parameter names of a path template, in order: `PathParameters<'/a/{x}/b/{}'>` is `['x', '']`. A plain
 * `string` (a template not known to the compiler) gives `string[]`: any names, checked at run time.
 */
export type PathParameters<P extends string> = string extends P
  ? string[]
  : P extends `/${infer Rest}`
    ? CollectParameters<SplitSegments<Rest>>
    : CollectParameters<SplitSegments<P>>;

/**
 * The object form of `resolve`: one value per named parameter. Not available (`never`) when the path has
 * anonymous `{}` parameters, which only resolve by position.
 */
export type NamedParameterValues<N extends string[]> = string[] extends N
  ? Readonly<Record<string, NodeNameValue>>
  : '' extends N[number]
    ? never
    : { readonly [K in N[number]]: NodeNameValue };

/** The positional form of `resolve`: one value per parameter, in order (Curator's `resolved(Object...)`). */
export type PositionalParameterValues<N extends string[]> = string[] extends N
  ? NodeNameValue[]
  : { [I in keyof N]: NodeNameValue };

/** What `child(name)` adds to the parameter names: a `{name}` child is a parameter. */
type ChildParameters<N extends string[], C> = C extends string ? [...N, ...SegmentParameter<C>] : N;

// ---- runtime -------------------------------------------------------------------------------------------

/** One segment: a node name, or a parameter (`name` is `''` for `{}`). */
type Segment =
  | { readonly parameter: false; readonly name: string }
  | { readonly parameter: true; readonly name: string };

function isParameterText(segment: string): boolean {
  // Curator's ZPath.isId: starts with "{" and ends with "}".
  return segment.length >= 2 && segment.startsWith('{') && segment.endsWith('}');
}

function segmentOf(text: string, where: string): Segment {
  if (isParameterText(text)) return { parameter: true, name: text.slice(1, -1) };
  checkNodeName(text, where);
  return { parameter: false, name: text };
}

function segmentText(segment: Segment): string {
  return segment.parameter ? `{${segment.name}}` : segment.name;
}

function sameSegment(a: Segment, b: Segment): boolean {
  return a.parameter === b.parameter && a.name === b.name;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How many resolutions of one path are kept, so that resolving the same values again gives the same ZPath
 * (immutable, so nothing can tell). A cached framework's read looks its model up by the resolved path's
 * text: a kept path's text was hashed when first looked up, a text made anew must be built and hashed on
 * every read. About 250 bytes each, so at most 4 MiB per parameterized path; when more paths are in use than
 * this, the memo keeps none for a while (see BoundedMemo).
 */
const KEPT_RESOLUTIONS = 16_384;

/**
 * A ZPath with any parameters, for arguments that take every path (`resolve`'s parameter types make
 * `ZPath<['id']>` and `ZPath<string[]>` unrelated to the compiler).
 */
// biome-ignore lint/suspicious/noExplicitAny: the one way to name "a ZPath of any parameters"
export type AnyZPath = ZPath<any>;

/** A path whose segments may be parameters; immutable. `N` is the list of parameter names, in order. */
export class ZPath<N extends string[] = string[]> {
  /** The root path, `/`. */
  static readonly root: ZPath<[]> = new ZPath<[]>([]);

  readonly #segments: readonly Segment[];
  /** `toString()`, made once: every read of a model at this path looks its node up by this text. */
  readonly #text: string;
  readonly #parameterNames: readonly string[];
  /** This path's resolutions by their values (joined by `/`, which no node name holds); see KEPT_RESOLUTIONS. */
  #resolutions: BoundedMemo<string, ZPath<[]>> | undefined;

  private constructor(segments: readonly Segment[]) {
    this.#segments = segments;
    this.#text = segments.length === 0 ? '/' : `/${segments.map(segmentText).join('/')}`;
    this.#parameterNames = segments.filter((s) => s.parameter).map((s) => s.name);
  }

  /** Parses a path template; see {@link zpath}. */
  static parse<const P extends string>(path: P): ZPath<PathParameters<P>> {
    if (typeof path !== 'string') {
      throw new InvalidModelArgumentError('path', `expected a string, got ${typeof path}`);
    }
    if (!path.startsWith('/'))
      throw new InvalidModelArgumentError(`path ${JSON.stringify(path)}`, 'must start with "/"');
    if (path === '/') return ZPath.root as unknown as ZPath<PathParameters<P>>;
    if (path.endsWith('/'))
      throw new InvalidModelArgumentError(`path ${JSON.stringify(path)}`, 'must not end with "/"');
    const texts = path.slice(1).split('/');
    const segments = texts.map((text, index) => {
      if (text === '') {
        throw new InvalidModelArgumentError(`path ${JSON.stringify(path)}`, `empty segment ${index + 1}`);
      }
      return segmentOf(text, `path ${JSON.stringify(path)}`);
    });
    return new ZPath(segments) as ZPath<PathParameters<P>>;
  }

  /** The parameter names in order (`''` for each `{}`). */
  get parameterNames(): string[] {
    return [...this.#parameterNames];
  }

  /** True when no parameter is left. */
  get isResolved(): boolean {
    return this.#parameterNames.length === 0;
  }

  /** True for `/`. */
  get isRoot(): boolean {
    return this.#segments.length === 0;
  }

  /** The last segment's name (`{id}` for a parameter; `''` for the root). */
  get nodeName(): string {
    const last = this.#segments.at(-1);
    return last === undefined ? '' : segmentText(last);
  }

  /** The znode path; throws {@link UnresolvedPathError} while parameters are left (Curator's `fullPath()`). */
  fullPath(operation = 'fullPath'): string {
    if (!this.isResolved) throw new UnresolvedPathError(this.#text, operation);
    return this.#text;
  }

  /** The path with parameters shown as `{name}`: `/tenants/{id}/quota`. */
  toString(): string {
    return this.#text;
  }

  /**
   * Replaces the parameters with values: by name (`{ id: 't1' }`), or by position (`resolve('t1')`, Curator's
   * `resolved(Object...)`, also for `{}`). Every parameter must get a value, and each value must be one valid
   * znode name (a string, number, bigint or an object with `nodeName()`); INVALID_ARGUMENT otherwise.
   */
  resolve(values: NamedParameterValues<N>): ZPath<[]>;
  resolve(...values: PositionalParameterValues<N>): ZPath<[]>;
  resolve(...args: unknown[]): ZPath<[]> {
    const values = this.#parameterValues(args);
    const key = values.length === 1 ? (values[0] as string) : values.join('/');
    const kept = this.#resolutions?.get(key);
    if (kept !== undefined) return kept;
    let index = 0;
    const resolved = new ZPath<[]>(
      this.#segments.map(
        (segment): Segment =>
          segment.parameter ? { parameter: false, name: values[index++] as string } : segment,
      ),
    );
    this.#resolutions ??= new BoundedMemo(KEPT_RESOLUTIONS);
    return this.#resolutions.keep(key, resolved);
  }

  /** The node name of each parameter segment, in order, from `resolve`'s arguments (checked). */
  #parameterValues(args: unknown[]): string[] {
    const names = this.#parameterNames;
    const first = args[0];
    const named = args.length === 1 && typeof first === 'object' && first !== null && !isNodeName(first);
    if (!named) {
      if (args.length !== names.length) {
        throw new InvalidModelArgumentError(
          this.#text,
          `expected ${names.length} parameter value(s), got ${args.length}`,
        );
      }
      return names.map((name, i) => nodeNameOf(args[i], `${this.#text}: parameter {${name}}`));
    }
    if (names.includes('')) {
      throw new InvalidModelArgumentError(this.#text, 'anonymous {} parameters resolve by position only');
    }
    const record = first as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!names.includes(key))
        throw new InvalidModelArgumentError(this.#text, `there is no parameter {${key}}`);
    }
    return names.map((name) => {
      if (!Object.hasOwn(record, name)) {
        throw new InvalidModelArgumentError(this.#text, `no value for parameter {${name}}`);
      }
      return nodeNameOf(record[name], `${this.#text}: parameter {${name}}`);
    });
  }

  /**
   * The path of a child. A string child `{name}` (or `{}`) is a parameter, as in {@link zpath}; any other
   * value must be one valid znode name.
   */
  child<const C extends NodeNameValue>(child: C): ZPath<ChildParameters<N, C>> {
    const segment: Segment =
      typeof child === 'string' && isParameterText(child)
        ? { parameter: true, name: child.slice(1, -1) }
        : { parameter: false, name: nodeNameOf(child, `${this}: child`) };
    return new ZPath([...this.#segments, segment]);
  }

  /** The path of a child that is a node name even when it reads `{x}` (names listed by the server). */
  childNamed(child: NodeNameValue): ZPath<N> {
    return new ZPath([...this.#segments, { parameter: false, name: nodeNameOf(child, `${this}: child`) }]);
  }

  /**
   * The parent path; throws INVALID_ARGUMENT on the root. The parent of a resolved path is resolved; of a
   * parameterized path, its parameters are known at run time only.
   */
  parent(): ZPath<N extends [] ? [] : string[]> {
    if (this.isRoot) throw new InvalidModelArgumentError('parent', 'the root has no parent');
    return new ZPath(this.#segments.slice(0, -1));
  }

  /** True when `path`'s segments are the first segments of this one (parameters match by name). */
  startsWith(path: AnyZPath | string): boolean {
    const other = typeof path === 'string' ? ZPath.parse(path) : path;
    const theirs = other.#segments;
    if (theirs.length > this.#segments.length) return false;
    return theirs.every((segment, i) => sameSegment(segment, this.#segments[i] as Segment));
  }

  /** True for the same segments (parameters match by name). */
  equals(path: AnyZPath): boolean {
    return path.#segments.length === this.#segments.length && this.startsWith(path);
  }

  /**
   * A RegExp matching every resolved path of this one: each parameter matches one node name (Curator's
   * `toSchemaPathPattern` uses `.*`, which also crosses `/`).
   */
  toSchemaPathPattern(): RegExp {
    if (this.isRoot) return /^\/$/;
    const body = this.#segments.map((s) => (s.parameter ? '[^/]+' : escapeRegExp(s.name))).join('/');
    return new RegExp(`^/${body}$`);
  }
}

/**
 * Parses a path template (Curator's `ZPath.parseWithIds`): each segment `{name}` (or the anonymous `{}`) is
 * a parameter, every other segment a node name. The path must start with `/` and have no empty segment.
 */
export function zpath<const P extends string>(path: P): ZPath<PathParameters<P>> {
  return ZPath.parse(path);
}

export type { NodeName, NodeNameValue };
