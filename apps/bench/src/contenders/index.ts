/** Every contender, by id, in the order of the report's columns. */
import type { ContenderId, ScenarioKind, ThroughputOp } from '../types.js';
import type { Contender } from './contender.js';
import { curator } from './curator.js';
import { go } from './go.js';
import { java } from './java.js';
import { native } from './native.js';
import { nzc } from './nzc.js';
import { baseline, ours } from './ours.js';
import { raw, rawPaced } from './raw.js';
import { rust } from './rust.js';

export const contenders: Record<ContenderId, Contender> = {
  ours,
  baseline,
  raw,
  'raw-paced': rawPaced,
  'node-zookeeper-client': nzc,
  'zookeeper-native': native,
  java,
  go,
  rust,
  curator,
};

/** Short names --contenders accepts besides the ids. */
export const aliases: Record<string, ContenderId> = {
  nzc: 'node-zookeeper-client',
  native: 'zookeeper-native',
};

export function supports(
  id: ContenderId,
  benchCase: { kind: ScenarioKind; op?: ThroughputOp; scenario?: string },
): boolean {
  return contenders[id].supports(benchCase.kind, benchCase.op, benchCase.scenario);
}
