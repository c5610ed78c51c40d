// Keeps the client's layers honest: every source file of packages/zk-wire-client/src sits in a folder named
// after its layer, and imports only from its own layer or the layers below it. An import that climbs (a
// transport file reaching into session/, say) fails `npm run lint` with the file and the import named.
//
// Layers, lowest first: util → protocol → security → transport → pipeline → session → client. The entry
// points directly under src/ (index.ts, internal.ts) sit above every layer and may import any of them. A file
// in a folder that is not a layer fails too, so that a new folder is placed on purpose. A unit test
// (`*.test.ts`) keeps its layer's rule but may also import an entry point, to drive the public API.
//
// It also prints the import floors: the longest chain of files each importing the next (type-only imports
// count: they tie the files as much for a reader), cycles counted as one floor, test files left out; and the
// same for the layers (the longest chain of layers, each importing from the next).
//
// Usage: node scripts/check-layers.mjs [--root DIR] [--quiet]
//   --root: the source folder to check (default packages/zk-wire-client/src)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The client's layers, lowest first. */
export const CLIENT_LAYERS = ['util', 'protocol', 'security', 'transport', 'pipeline', 'session', 'client'];

const TEST_FILE = /\.test\.ts$/;

/** Every `.ts` file under `root` (fixtures folders left out), as paths relative to it with `/` separators. */
export function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__fixtures__' || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  walk(root);
  return files.map((f) => path.relative(root, f).split(path.sep).join('/')).sort();
}

/** The module specifiers a TypeScript source imports or re-exports from, including `import()` and `import type`. */
export function importSpecifiers(source) {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** The file (relative to `root`) that a relative specifier of `from` names, or undefined for a package import. */
function resolveSpecifier(root, from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(root, path.dirname(from), specifier);
  const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), base, `${base}.ts`, path.join(base, 'index.ts')];
  const found = candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? candidates[0];
  return path.relative(root, found).split(path.sep).join('/');
}

/** The layer of a file: its first folder, or null for a file directly under the root. */
function layerOf(file) {
  const slash = file.indexOf('/');
  return slash === -1 ? null : file.slice(0, slash);
}

/** The import graph of the `.ts` files under `root`: file → files it imports (inside `root` only). */
export function importGraph(root) {
  const graph = new Map();
  for (const file of sourceFiles(root)) {
    const source = readFileSync(path.join(root, file), 'utf8');
    const targets = [];
    for (const specifier of importSpecifiers(source)) {
      const target = resolveSpecifier(root, file, specifier);
      if (target !== undefined && !target.startsWith('..')) targets.push({ specifier, target });
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The longest chain of imports among the non-test files of `graph` (strongly connected files, which import each
 * other round, count as one floor). Returns the number of floors and one chain that long, top file first.
 */
export function importFloors(graph) {
  const files = [...graph.keys()].filter((f) => !TEST_FILE.test(f));
  const edges = new Map(
    files.map((f) => [
      f,
      [...new Set(graph.get(f).map((e) => e.target))].filter((t) => graph.has(t) && !TEST_FILE.test(t)),
    ]),
  );
  // Tarjan's strongly connected components; components come out in reverse topological order (leaves first).
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const component = new Map();
  const components = [];
  let counter = 0;
  const connect = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const members = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.set(w, components.length);
        members.push(w);
      } while (w !== v);
      components.push(members.sort());
    }
  };
  for (const f of files) if (!index.has(f)) connect(f);
  // Leaves first, so every component's imports are measured before it.
  const depth = [];
  const next = [];
  components.forEach((members, c) => {
    depth[c] = 1;
    next[c] = -1;
    for (const m of members) {
      for (const t of edges.get(m)) {
        const d = component.get(t);
        if (d !== c && depth[d] + 1 > depth[c]) {
          depth[c] = depth[d] + 1;
          next[c] = d;
        }
      }
    }
  });
  let top = -1;
  components.forEach((_, c) => {
    if (top === -1 || depth[c] > depth[top]) top = c;
  });
  const chain = [];
  for (let c = top; c !== -1; c = next[c]) chain.push(components[c].join(' ⇄ '));
  return { floors: top === -1 ? 0 : depth[top], chain };
}

/**
 * Checks that each file imports only from its own layer or lower ones. `layers` is lowest first; files directly
 * under `root` are entry points, above every layer.
 */
export function checkLayers({ root, layers = CLIENT_LAYERS }) {
  const graph = importGraph(root);
  const rank = new Map(layers.map((name, i) => [name, i]));
  const violations = [];
  const filesPerLayer = Object.fromEntries([['(entry points)', 0], ...layers.map((l) => [l, 0])]);
  for (const [file, imports] of graph) {
    const layer = layerOf(file);
    if (layer === null) {
      filesPerLayer['(entry points)']++;
      continue;
    }
    if (!rank.has(layer)) {
      violations.push({
        file,
        message: `is in ${layer}/, which is not a layer (layers: ${layers.join(', ')})`,
      });
      continue;
    }
    filesPerLayer[layer]++;
    for (const { specifier, target } of imports) {
      const targetLayer = layerOf(target);
      if (targetLayer === null) {
        // A unit test may drive the public API; it ships in no layer.
        if (TEST_FILE.test(file)) continue;
        violations.push({
          file,
          specifier,
          message: `imports '${specifier}', an entry point above every layer`,
        });
      } else if (!rank.has(targetLayer)) {
        violations.push({
          file,
          specifier,
          message: `imports '${specifier}' from ${targetLayer}/, which is not a layer`,
        });
      } else if (rank.get(targetLayer) > rank.get(layer)) {
        violations.push({
          file,
          specifier,
          message: `imports '${specifier}' from ${targetLayer}/, a layer above ${layer}/ (allowed: ${layers
            .slice(0, rank.get(layer) + 1)
            .join(', ')})`,
        });
      }
    }
  }
  const layerGraph = new Map();
  for (const [file, imports] of graph) {
    if (TEST_FILE.test(file)) continue;
    const from = layerOf(file) ?? '(entry points)';
    if (!layerGraph.has(from)) layerGraph.set(from, []);
    for (const { target } of imports) {
      const to = layerOf(target) ?? '(entry points)';
      if (to !== from) layerGraph.get(from).push({ specifier: to, target: to });
    }
  }
  const layered = importFloors(layerGraph);
  return {
    violations,
    filesPerLayer,
    ...importFloors(graph),
    layerFloors: layered.floors,
    layerChain: layered.chain,
  };
}

function main() {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = path.resolve(
    rootAt === -1 ? path.join(repo, 'packages/zk-wire-client/src') : args[rootAt + 1],
  );
  const quiet = args.includes('--quiet');
  const { violations, filesPerLayer, floors, chain, layerFloors, layerChain } = checkLayers({ root });
  const shown = path.relative(process.cwd(), root) || '.';
  for (const v of violations) console.error(`${path.join(shown, v.file)} ${v.message}`);
  if (!quiet) {
    const counts = Object.entries(filesPerLayer)
      .map(([layer, n]) => `${layer} ${n}`)
      .join(', ');
    console.log(`${shown}: files per layer: ${counts}`);
    console.log(`${shown}: ${floors} import floors of files: ${chain.join(' → ')}`);
    console.log(`${shown}: ${layerFloors} floors of layers: ${layerChain.join(' → ')}`);
  }
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} import(s) break the layering of ${shown}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
