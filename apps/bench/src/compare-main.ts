/**
 * `npm run bench:compare -- A/results.json B/results.json`: prints, case by case, ours / ceiling of two runs
 * and whether they agree within 3% (compare.ts).
 */
import { readFileSync } from 'node:fs';
import { AGREEMENT, compareRuns } from './compare.js';
import type { RunReport } from './report/model.js';

function main(): void {
  const [a, b] = process.argv.slice(2);
  if (!a || !b) {
    process.stderr.write('usage: npm run bench:compare -- <first results.json> <second results.json>\n');
    process.exit(2);
  }
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as RunReport;
  const rows = compareRuns(read(a), read(b));
  const line = (cells: string[]) =>
    `${cells.map((cell, i) => (i === 0 ? cell.padEnd(22) : cell.padStart(12))).join('')}\n`;
  process.stdout.write(line(['case', 'first', 'second', 'difference', '']));
  for (const r of rows) {
    const verdict = r.agrees ? 'agrees' : `> ${AGREEMENT * 100}%`;
    process.stdout.write(
      line([
        r.key,
        `${r.first.toFixed(3)}×`,
        `${r.second.toFixed(3)}×`,
        `${(r.difference * 100).toFixed(1)}%`,
        verdict,
      ]),
    );
  }
  const agreeing = rows.filter((r) => r.agrees).length;
  process.stdout.write(`${agreeing} of ${rows.length} cases agree within ${AGREEMENT * 100}%\n`);
}

main();
