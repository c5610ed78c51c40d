/** Applies one scheduled fault to the ensemble or to one client's proxies, and heals it. */
import type { Ensemble, FaultProxy } from '@zkwire/testing';
import type { ScheduledFault } from './schedule.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface FaultTargets {
  ensemble: Ensemble;
  /** Each client's proxies, one per member. */
  proxies: ReadonlyMap<string, readonly FaultProxy[]>;
}

/** Runs the fault to its end (restart, resume); returns what was hit, for the log. */
export async function applyFault(
  fault: ScheduledFault,
  targets: FaultTargets,
  random: () => number,
): Promise<string> {
  const { ensemble } = targets;
  if (fault.kind === 'kill-leader' || fault.kind === 'kill-follower') {
    const leader = await ensemble.leader();
    const followers = ensemble.members.map((_, i) => i).filter((i) => i !== leader);
    const victim =
      fault.kind === 'kill-leader' ? leader : (followers[Math.floor(random() * followers.length)] ?? 0);
    await ensemble.kill(victim);
    await sleep(fault.durationMs);
    await ensemble.start(victim);
    return `member ${victim}`;
  }
  const proxies = targets.proxies.get(fault.target) ?? [];
  if (fault.kind === 'cut') {
    for (const proxy of proxies) proxy.cut();
    return fault.target;
  }
  // A stall may hold one way only; an expiry holds both (the server must hear nothing).
  const direction = fault.kind === 'stall' && fault.direction !== 'both' ? fault.direction : undefined;
  for (const proxy of proxies) proxy.pause(direction);
  await sleep(fault.durationMs);
  for (const proxy of proxies) proxy.resume();
  return fault.target;
}
