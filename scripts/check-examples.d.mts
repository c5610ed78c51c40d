// Types of check-examples.mjs, for its test.

/** A fenced code block of a Markdown text, in any language. */
export interface Fence {
  /** 1-based line of the block's first code line in the Markdown. */
  line: number;
  /** Spaces removed from every line (an indented fence). */
  indent: number;
  /** The info string's first word, lower case. */
  lang: string;
  /** The info string's other words (`no-check`, `no-run`, `chroot=/app`). */
  flags: string[];
  code: string;
}

/** A fenced TypeScript or JavaScript block of a Markdown text. */
export interface ExampleBlock {
  /** 1-based line of the block's first code line in the Markdown. */
  line: number;
  /** Spaces removed from every line (an indented fence). */
  indent: number;
  code: string;
  /** Fenced as ```ts no-check. */
  skip: boolean;
  /** The extension of its module: ts, mjs (```js) or cjs (```cjs). */
  ext: 'ts' | 'mjs' | 'cjs';
}

/** One compiler diagnostic, pointing into the Markdown. */
export interface ExampleError {
  file: string;
  line: number;
  column: number;
  message: string;
  /** `FILE.md:LINE:COL error TSxxxx: message` */
  text: string;
}

export interface CheckResult {
  blocks: number;
  failures: { file: string; line: number }[];
  skipped: number;
  errors: ExampleError[];
}

export function findMarkdownFiles(root: string): string[];
export function guidePages(root: string): string[];
export function extractFences(markdown: string): Fence[];
export function extractBlocks(markdown: string): ExampleBlock[];
export function packagePaths(root: string): Record<string, string[]>;
export function checkExamples(options: { root: string; files?: string[]; outDir?: string }): CheckResult;
