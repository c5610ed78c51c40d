/**
 * `--write-results`: the run's report as apps/bench/RESULTS.md, headed by what a reader needs to weigh it:
 * the machine (lscpu's model name and cores), the commit measured and the date; the report under it gives the
 * command line, Node, the load, the server and the method.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderMarkdown } from './markdown.js';
import type { RunReport } from './model.js';

const resultsFile = fileURLToPath(new URL('../../RESULTS.md', import.meta.url));

const run = (file: string, args: string[]) => {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
};

/** lscpu's model name and core count, else Node's view of the CPUs. */
function machine(report: RunReport): string {
  const lscpu = run('lscpu', []);
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(lscpu)?.[1]?.trim();
  const model = field('Model name') ?? report.machine.cpuModel;
  return `${model}, ${field('CPU\\(s\\)') ?? report.machine.cpus} CPU(s)`;
}

export function writeResultsFile(report: RunReport): void {
  const commit = run('git', ['rev-parse', 'HEAD']) || 'unknown';
  const dirty = run('git', ['status', '--porcelain', '--untracked-files=no'])
    ? ' (with uncommitted changes)'
    : '';
  const head = [
    '# Bench results',
    '',
    "The latest full run, written by `npm run bench -- --write-results`; earlier runs are in this file's git history.",
    '',
    `- CPU (lscpu): ${machine(report)}`,
    `- Commit: ${commit}${dirty}`,
    `- Date: ${report.startedAt} to ${report.finishedAt}`,
  ];
  const body = renderMarkdown(report, false).replace(/^# .*\n/, '');
  writeFileSync(resultsFile, `${head.join('\n')}${body}`);
}
