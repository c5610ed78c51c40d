/**
 * Do two runs agree? For every case both runs rated, ours / ceiling of each run (its median over rounds)
 * and their difference. A bench one can trust gives the same verdicts twice: two runs of the same command
 * should agree within 3%. The command is `npm run bench:compare` (compare-main.ts).
 */
import type { RunReport } from './report/model.js';

/** The agreement asked of two runs of the same command. */
export const AGREEMENT = 0.03;

/** One case rated in both runs. */
export interface CaseAgreement {
  key: string;
  first: number;
  second: number;
  /** |first - second| / the mean of the two */
  difference: number;
  agrees: boolean;
}

/** Compares ours / ceiling, case by case, of two runs; cases rated in only one run are left out. */
export function compareRuns(
  first: Pick<RunReport, 'cases'>,
  second: Pick<RunReport, 'cases'>,
): CaseAgreement[] {
  const secondByKey = new Map(second.cases.map((c) => [c.case.key, c.oursVsCeiling?.median]));
  return first.cases.flatMap((c) => {
    const a = c.oursVsCeiling?.median;
    const b = secondByKey.get(c.case.key);
    if (a === undefined || b === undefined) return [];
    const difference = Math.abs(a - b) / ((a + b) / 2);
    return [{ key: c.case.key, first: a, second: b, difference, agrees: difference <= AGREEMENT }];
  });
}
