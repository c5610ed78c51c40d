// Types of run-examples.mjs, for its tests.
import type { Fence } from './check-examples.mjs';

export const EXAMPLE_HOST: string;
export const NO_RUN: string;

/** A README block that runs: how, and the chroots its fence asks to exist. */
export interface RunnableExample extends Fence {
  runAs: 'esm' | 'cjs' | 'ts';
  chroots: string[];
}

export interface ModuleRun {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

export function findReadmes(root: string): string[];
export function runnableExamples(markdown: string): RunnableExample[];
export function notRunExamples(markdown: string): Fence[];
export function writeExample(
  example: RunnableExample,
  options: { markdownFile: string; outDir: string; hostPort: string },
): Promise<string>;
export function runModule(
  file: string,
  options: { cwd: string; timeoutMs?: number; env?: Record<string, string> },
): Promise<ModuleRun>;
export function describeFailure(
  run: ModuleRun,
  options: { where: string; timeoutMs: number },
): string | undefined;
