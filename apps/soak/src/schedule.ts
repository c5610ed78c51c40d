/**
 * The fault schedule: a pure function of (seed, minutes, clients), so `--seed S --minutes M` replays it.
 * Faults come one after another (the next starts after the previous healed, plus a gap), so the ensemble
 * keeps a quorum apart from the odd moment and every fault's effect can be told apart in the logs.
 */
import { seededRandom } from '@zkwire/testing';

export const FaultKind = {
  /** SIGKILL the member that leads at that moment, restart it after `durationMs`. */
  killLeader: 'kill-leader',
  /** SIGKILL a member that follows at that moment, restart it after `durationMs`. */
  killFollower: 'kill-follower',
  /** TCP reset of every connection of one client (it reconnects, same session). */
  cut: 'cut',
  /**
   * One client's bytes held for less than the session timeout, then delivered: both ways, or one way only
   * (`direction`: the server hears nothing while the client still gets its bytes, or the other way round).
   */
  stall: 'stall',
  /** One client's bytes held beyond the session timeout: the server expires its session. */
  expire: 'expire',
} as const;
export type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

export interface ScheduledFault {
  /** ms after the load started. */
  atMs: number;
  kind: FaultKind;
  /** The client for cut/stall/expire; empty for kills (the member is chosen by role at run time). */
  target: string;
  durationMs: number;
  /** For stalls: which way the bytes are held. */
  direction?: StallDirection;
}

/** Which way a stall holds bytes. */
export type StallDirection = 'both' | 'toServer' | 'toClient';
const STALL_DIRECTIONS: readonly StallDirection[] = ['both', 'toServer', 'toClient'];

export interface ScheduleOptions {
  seed: number;
  minutes: number;
  clients: readonly string[];
  sessionTimeoutMs: number;
}

/** Quiet time at the start (everyone joins) and at the end (before the drain). */
const LEAD_IN_MS = 8_000;
const LEAD_OUT_MS = 10_000;

export function makeSchedule({
  seed,
  minutes,
  clients,
  sessionTimeoutMs,
}: ScheduleOptions): ScheduledFault[] {
  const random = seededRandom(seed);
  // Stall directions come from a stream of their own, so a seed's times and kinds are the same as before
  // one-way stalls existed (replays of older runs keep their schedule).
  const directionRandom = seededRandom(seed ^ 0x5f3759df);
  const between = (min: number, max: number) => Math.round(min + random() * (max - min));
  const kinds = Object.values(FaultKind);
  const end = minutes * 60_000 - LEAD_OUT_MS;
  const faults: ScheduledFault[] = [];
  let at = LEAD_IN_MS;
  for (;;) {
    const kind = kinds[Math.floor(random() * kinds.length)] as FaultKind;
    const clientFault = kind === 'cut' || kind === 'stall' || kind === 'expire';
    const target = clientFault ? (clients[Math.floor(random() * clients.length)] ?? '') : '';
    const durationMs =
      kind === 'cut'
        ? 0
        : kind === 'stall'
          ? between(500, Math.floor(sessionTimeoutMs * 0.5))
          : kind === 'expire'
            ? sessionTimeoutMs + between(2_000, 4_000)
            : between(2_000, 8_000);
    if (at + durationMs > end) break;
    const direction =
      kind === 'stall'
        ? STALL_DIRECTIONS[Math.floor(directionRandom() * STALL_DIRECTIONS.length)]
        : undefined;
    faults.push({ atMs: at, kind, target, durationMs, ...(direction ? { direction } : {}) });
    at += durationMs + between(3_000, 9_000);
  }
  return faults;
}

/** One line per fault, as printed at the start of a run. */
export function formatSchedule(faults: readonly ScheduledFault[]): string {
  return faults
    .map(
      (f) =>
        `  ${(f.atMs / 1000).toFixed(1).padStart(6)}s ${f.kind}${f.direction && f.direction !== 'both' ? ` (${f.direction} only)` : ''}${f.target ? ` ${f.target}` : ''} ${f.durationMs} ms`,
    )
    .join('\n');
}
