// Types of check-examples.mjs, for its test.

/** A fenced TypeScript block of a Markdown text. */
export interface ExampleBlock {
  /** 1-based line of the block's first code line in the Markdown. */
  line: number;
  /** Spaces removed from every line (an indented fence). */
  indent: number;
  code: string;
  /** Fenced as ```ts no-check. */
  skip: boolean;
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
export function extractBlocks(markdown: string): ExampleBlock[];
export function packagePaths(root: string): Record<string, string[]>;
export function checkExamples(options: { root: string; files?: string[]; outDir?: string }): CheckResult;
