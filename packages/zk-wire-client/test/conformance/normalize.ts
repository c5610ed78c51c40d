/**
 * Applies the accepted-difference list to a run: per session, the ordered stream to compare exactly, and the
 * entries compared outside the order (argument errors, addAuth).
 */
import { ACCEPTED_DIFFERENCES, type NormalEntry } from './accepted-differences.js';
import { appliesTo } from './difference-helpers.js';
import type { Script } from './script.js';
import { numberedOps, type ScriptRun } from './stream.js';

/** One session's normalized stream. */
export interface NormalStream {
  ordered: NormalEntry[];
  /** Compared by step, not by position. */
  unordered: NormalEntry[];
}

/**
 * Normalizes every session of a run with the {@link ACCEPTED_DIFFERENCES} that apply to the run's `release`
 * (`without`: entries to leave out).
 */
export function normalizeRun(
  script: Script,
  run: ScriptRun,
  options: { release: string; without?: readonly string[] },
): NormalStream[] {
  const ops = numberedOps(script);
  return run.streams.map((raw, session) => {
    const context = {
      side: run.side,
      base: run.base,
      chroot: script.sessions[session] ?? null,
      script,
      session,
      opOf: (step: number) => ops[step]?.op,
    };
    let stream: NormalEntry[] = raw;
    for (const difference of ACCEPTED_DIFFERENCES) {
      if (options.without?.includes(difference.id) || !appliesTo(difference, options.release)) continue;
      if (difference.side === 'both' || difference.side === run.side)
        stream = difference.apply(stream, context);
    }
    const unordered = stream
      .filter((e) => e.unordered)
      .map(({ unordered: _u, ...e }) => e as NormalEntry)
      .sort((a, b) => ('step' in a && 'step' in b ? a.step - b.step : 0));
    return { ordered: stream.filter((e) => !e.unordered), unordered };
  });
}
