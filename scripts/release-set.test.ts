/**
 * The published packages form one release set: one version line, internal dependency ranges that the sibling
 * versions satisfy (so what installs from the registry is what was tested together), and one changesets
 * `fixed` group that holds exactly the published packages (never the private apps).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function manifestsUnder(folder: string): Array<Manifest & { dir: string }> {
  const base = path.join(root, folder);
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        const text = readFileSync(path.join(base, entry.name, 'package.json'), 'utf8');
        return [{ ...(JSON.parse(text) as Manifest), dir: `${folder}/${entry.name}` }];
      } catch {
        return []; // a folder without a package.json is not a package
      }
    });
}

type Version = [number, number, number];

function parseVersion(text: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) throw new Error(`not a plain x.y.z version: ${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether `version` is in `range`, for the forms this repository uses: `*`, `x.y.z`, `^x.y.z`, `~x.y.z`
 * (npm's meaning: a caret keeps the left-most non-zero part, so `^0.0.3` is `0.0.3` only and `^0.1.0` is
 * `<0.2.0`). Any other form throws, so a new form is noticed instead of waved through.
 */
function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (range === '*') return true;
  const operator = /^[\^~]/.test(range) ? range[0] : '';
  const low = parseVersion(range.slice(operator.length));
  if (operator === '') return compare(v, low) === 0;
  if (compare(v, low) < 0) return false;
  if (operator === '~') return v[0] === low[0] && v[1] === low[1];
  if (low[0] > 0) return v[0] === low[0];
  if (low[1] > 0) return v[0] === 0 && v[1] === low[1];
  return v[0] === 0 && v[1] === 0 && v[2] === low[2];
}

/** Which names a changesets group pattern list takes: `@scope/*` and exact names, `!` to leave one out. */
function expandGroup(patterns: readonly string[], names: readonly string[]): string[] {
  const matches = (name: string, pattern: string) =>
    pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern;
  return names.filter(
    (name) =>
      patterns.some((pattern) => !pattern.startsWith('!') && matches(name, pattern)) &&
      !patterns.some((pattern) => pattern.startsWith('!') && matches(name, pattern.slice(1))),
  );
}

const workspace = [...manifestsUnder('packages'), ...manifestsUnder('apps')];
const published = workspace.filter((pkg) => pkg.private !== true);
const byName = new Map(workspace.map((pkg) => [pkg.name, pkg]));

describe('the tiny range check', () => {
  it('reads ^, ~, exact and * as npm does', () => {
    expect(satisfies('0.1.0', '^0.0.0')).toBe(false);
    expect(satisfies('0.0.0', '^0.0.0')).toBe(true);
    expect(satisfies('0.1.5', '^0.1.0')).toBe(true);
    expect(satisfies('0.2.0', '^0.1.0')).toBe(false);
    expect(satisfies('1.9.0', '^1.2.3')).toBe(true);
    expect(satisfies('1.2.2', '^1.2.3')).toBe(false);
    expect(satisfies('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.3')).toBe(false);
    expect(satisfies('0.1.0', '0.1.0')).toBe(true);
    expect(satisfies('0.1.1', '0.1.0')).toBe(false);
    expect(satisfies('7.7.7', '*')).toBe(true);
    expect(() => satisfies('0.1.0', '>=0.1.0')).toThrow(/not a plain/);
  });

  it('expands a group with a scope wildcard and exclusions', () => {
    expect(expandGroup(['@a/*', '!@a/x'], ['@a/x', '@a/y', '@b/z'])).toEqual(['@a/y']);
  });
});

describe('the release set', () => {
  it('finds the published packages (the apps are private)', () => {
    expect(published.map((pkg) => pkg.name)).toContain('@zkwire/zk-wire-client');
    expect(published.map((pkg) => pkg.name)).toContain('@zkwire/cli');
    expect(published.some((pkg) => pkg.dir.startsWith('apps/'))).toBe(false);
  });

  it('puts every published package on one version', () => {
    const versions = new Map(published.map((pkg) => [pkg.name, pkg.version]));
    const first = published[0]?.version;
    const differing = [...versions].filter(([, version]) => version !== first);
    expect(differing, `versions differ from ${published[0]?.name}@${first}`).toEqual([]);
  });

  it('gives every internal dependency a range that the sibling version satisfies', () => {
    const unsatisfied: string[] = [];
    for (const pkg of workspace) {
      for (const field of [
        'dependencies',
        'devDependencies',
        'peerDependencies',
        'optionalDependencies',
      ] as const) {
        for (const [dep, range] of Object.entries(pkg[field] ?? {})) {
          const sibling = byName.get(dep);
          if (sibling === undefined) continue;
          if (!satisfies(sibling.version, range)) {
            unsatisfied.push(`${pkg.name} ${field} ${dep}@${range}, but ${dep} is ${sibling.version}`);
          }
        }
      }
    }
    expect(unsatisfied).toEqual([]);
  });

  it('has one changesets fixed group holding exactly the published packages', () => {
    const config = JSON.parse(readFileSync(path.join(root, '.changeset/config.json'), 'utf8')) as {
      fixed: string[][];
      ignore: string[];
    };
    expect(config.fixed).toHaveLength(1);
    const group = expandGroup(config.fixed[0] as string[], [...byName.keys()]);
    expect(group.sort()).toEqual(published.map((pkg) => pkg.name).sort());
    const privateNames = workspace.filter((pkg) => pkg.private === true).map((pkg) => pkg.name);
    expect(config.ignore.sort()).toEqual(privateNames.sort());
  });
});
