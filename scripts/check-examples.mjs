// Compiles every ```ts and ```js example of the user-facing Markdown, each block alone, so that examples cannot rot.
//
// Each block becomes its own ES module under .tmp/examples/ (top-level await allowed), compiled with the
// repository's compiler options and `@zkwire/*` mapped to the packages' sources: a block passes only when a
// new user could paste it into an empty file and get working code, so it must import every name it uses and
// define every variable. Failures are reported as `FILE.md:LINE:COL` of the Markdown.
//
// Checked: README.md, packages/*/*.md, apps/*/*.md (not CHANGELOG.md) and the user guide, docs/guide/*.md. Not
// checked: the rest of docs/, whose reference pages hold declarations and pseudo-code. A block that is
// deliberately not standalone code is fenced as ```ts no-check (say why next to it), or in another language.
// ```js and ```cjs blocks are checked too (checkJs), as ES module and CommonJS files.
//
// Usage: node scripts/check-examples.mjs [--out DIR] [FILE.md ...]
//   no files: every user-facing Markdown file; --out: where the modules go (default .tmp/examples)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// Fence language → the extension its module gets: JavaScript blocks are checked too (checkJs), as a user's
// editor would.
const CHECKED_LANGUAGES = new Map([
  ['ts', 'ts'],
  ['typescript', 'ts'],
  ['mts', 'ts'],
  ['js', 'mjs'],
  ['mjs', 'mjs'],
  ['javascript', 'mjs'],
  ['cjs', 'cjs'],
]);
const NO_CHECK = 'no-check';

/** The user-facing Markdown files of the repository at `root`, relative to it, in a stable order. */
export function findMarkdownFiles(root) {
  const files = [];
  if (existsSync(path.join(root, 'README.md'))) files.push('README.md');
  for (const group of ['packages', 'apps']) {
    const dir = path.join(root, group);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
      if (!entry.isDirectory()) continue;
      const pkgDir = path.join(dir, entry.name);
      for (const file of readdirSync(pkgDir, { withFileTypes: true }).sort(byName)) {
        if (file.isFile() && file.name.endsWith('.md') && file.name !== 'CHANGELOG.md') {
          files.push(`${group}/${entry.name}/${file.name}`);
        }
      }
    }
  }
  return [...files, ...guidePages(root)];
}

/** The user guide's pages (docs/guide/*.md), relative to `root`: examples for users, checked like READMEs. */
export function guidePages(root) {
  const dir = path.join(root, 'docs', 'guide');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/guide/${name}`);
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Every fenced code block of a Markdown text: `line` (1-based line of its first code line), `indent` (removed
 * from every line), `lang` (the info string's first word, lower case), `flags` (its other words), `code`.
 */
export function extractFences(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang, rest] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(lines[j]);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    blocks.push({
      line: i + 2,
      indent: indent.length,
      lang: lang.toLowerCase(),
      flags: rest.split(/\s+/).filter(Boolean),
      code: body.join('\n'),
    });
    i = j; // past the closing fence (or the end of an unclosed block)
  }
  return blocks;
}

/**
 * The fenced code blocks of a Markdown text that are TypeScript or JavaScript.
 * Each: `line` (1-based line of the block's first code line), `indent` (removed from every line), `code`,
 * `skip` (fenced as ```ts no-check), `ext` (the module's extension: ts, mjs or cjs).
 */
export function extractBlocks(markdown) {
  return extractFences(markdown)
    .filter((block) => CHECKED_LANGUAGES.has(block.lang))
    .map(({ line, indent, code, lang, flags }) => ({
      line,
      indent,
      code,
      skip: flags.includes(NO_CHECK),
      ext: CHECKED_LANGUAGES.get(lang),
    }));
}

/**
 * `paths` for every package under packages/: `@zkwire/x` to its src/index.ts, and each subpath export
 * (`@zkwire/x/internal`) to src/<subpath>.ts, so that new packages are picked up without configuration.
 */
export function packagePaths(root) {
  const paths = {};
  const dir = path.join(root, 'packages');
  if (!existsSync(dir)) return paths;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
    const manifestPath = path.join(dir, entry.name, 'package.json');
    if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const subpaths = Object.keys(manifest.exports ?? { '.': null });
    for (const subpath of subpaths) {
      const file = subpath === '.' ? 'index.ts' : `${subpath.replace(/^\.\//, '')}.ts`;
      const source = path.join(dir, entry.name, 'src', file);
      if (!existsSync(source)) continue;
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, '')}`;
      paths[specifier] = [path.relative(root, source).split(path.sep).join('/')];
    }
  }
  return paths;
}

/** A file name for a block: the Markdown path and line, readable in .tmp/examples/. */
function moduleName(markdownFile, line, ext) {
  const slug = markdownFile
    .replace(/\.md$/i, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${slug}_L${line}.${ext}`;
}

/** Markdown path as shown in messages: relative to the current directory when inside it. */
function displayPath(file) {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

/**
 * Compiles every TypeScript block of `files` (Markdown paths, relative to `root` or absolute), each as its own
 * module written to `outDir`.
 * Returns `{ blocks, failures, skipped, errors }`: `blocks` the checked count, `failures` the blocks that did
 * not compile, `skipped` the ones marked no-check, `errors` one `{ file, line, column, message, text }` per
 * diagnostic, `file`/`line`/`column` pointing into the Markdown.
 */
export function checkExamples({
  root,
  files = findMarkdownFiles(root),
  outDir = path.join(root, '.tmp', 'examples'),
}) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const byModule = new Map();
  let skipped = 0;
  for (const file of files) {
    const absolute = path.resolve(root, file);
    for (const block of extractBlocks(readFileSync(absolute, 'utf8'))) {
      if (block.skip) {
        skipped += 1;
        continue;
      }
      const modulePath = path.join(outDir, moduleName(path.relative(root, absolute), block.line, block.ext));
      // Every block is a module of its own (moduleDetection: force), so top-level await and its own scope hold.
      writeFileSync(modulePath, `${block.code}\n`);
      byModule.set(path.resolve(modulePath), { file: displayPath(absolute), block });
    }
  }
  if (byModule.size === 0) return { blocks: 0, failures: [], skipped, errors: [] };

  const options = compilerOptions(root);
  const program = ts.createProgram([...byModule.keys()], options);
  const errors = [];
  const failed = new Set();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const code = `TS${diagnostic.code}`;
    if (!diagnostic.file || diagnostic.start === undefined) {
      errors.push({ file: '(compiler)', line: 0, column: 0, message, text: `error ${code}: ${message}` });
      continue;
    }
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const example = byModule.get(path.resolve(diagnostic.file.fileName));
    if (!example) {
      // A package's own source failed: its typecheck reports it too, but do not hide it here.
      const where = `${displayPath(diagnostic.file.fileName)}:${line + 1}:${character + 1}`;
      errors.push({
        file: where,
        line: line + 1,
        column: character + 1,
        message,
        text: `${where} error ${code}: ${message}`,
      });
      continue;
    }
    failed.add(example);
    const mdLine = example.block.line + line;
    const mdColumn = example.block.indent + character + 1;
    const where = `${example.file}:${mdLine}:${mdColumn}`;
    errors.push({
      file: example.file,
      line: mdLine,
      column: mdColumn,
      message,
      text: `${where} error ${code}: ${message}`,
    });
  }
  errors.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column,
  );
  const failures = [...failed].map(({ file, block }) => ({ file, line: block.line }));
  return { blocks: byModule.size, failures, skipped, errors };
}

/** The repository's compiler options (tsconfig.base.json) with `@zkwire/*` mapped to every package's source. */
function compilerOptions(root) {
  const basePath = path.join(root, 'tsconfig.base.json');
  const config = ts.readConfigFile(basePath, ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const compiler = config.config.compilerOptions ?? {};
  compiler.baseUrl = '.';
  compiler.paths = { ...compiler.paths, ...packagePaths(root) };
  compiler.noEmit = true;
  compiler.allowJs = true;
  compiler.checkJs = true;
  compiler.moduleDetection = 'force';
  const parsed = ts.parseJsonConfigFileContent({ compilerOptions: compiler, files: [] }, ts.sys, root);
  return parsed.options;
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const outDir = outIndex >= 0 ? path.resolve(args.splice(outIndex, 2)[1] ?? '') : undefined;
  const files = args.length > 0 ? args.map((file) => path.resolve(file)) : findMarkdownFiles(root);
  const result = checkExamples({ root, files, ...(outDir ? { outDir } : {}) });
  for (const error of result.errors) console.error(error.text);
  const passed = result.blocks - result.failures.length;
  const skippedNote = result.skipped > 0 ? `, ${result.skipped} marked no-check` : '';
  console.log(
    `examples: ${passed} of ${result.blocks} compile alone${skippedNote} (${files.length} Markdown files)`,
  );
  if (result.errors.length > 0) {
    const modules = path.relative(process.cwd(), outDir ?? path.join(root, '.tmp', 'examples')) || '.';
    console.error(
      [
        '',
        result.failures.length > 0
          ? `${result.failures.length} example(s) do not compile when pasted alone into an empty file.`
          : 'The examples could not be checked: the sources above do not compile.',
        'Each ```ts block in a README must import every name it uses and define every variable',
        '(e.g. `const zk = await connect({ connectString: "127.0.0.1:2181" });`).',
        `The compiled modules are in ${modules}/ (named after the file and line of each block).`,
        'A block that is deliberately not standalone TypeScript: fence it as ```ts no-check and say why beside it.',
      ].join('\n'),
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
