// Types of pack-set.mjs, for its test.

/** A JavaScript block of the README's quick start. */
export interface QuickStartBlock {
  /** The module extension it runs as. */
  ext: 'mjs' | 'cjs';
  /** The chroot the block needs created first (```js chroot=/app). */
  chroot: string | undefined;
  code: string;
}

export const EXAMPLE_HOST: string;
export function quickStartBlocks(markdown: string): QuickStartBlock[];
export function linkedPackages(project: string): string[];
export function publishProblems(output: string): string[];
export function dryRunPublish(dir: string): Promise<string[]>;
export function checkInstalledSet(options: {
  root: string;
  work: string;
  tarballFiles: string[];
  readmeFile: string;
  log: (line: string) => void;
}): Promise<void>;
