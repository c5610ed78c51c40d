/**
 * `leader PATH`: the leader and the participants of a Curator LeaderLatch (`_c_<uuid>-latch-<seq>` nodes)
 * or LeaderSelector (a mutex: `_c_<uuid>-lock-<seq>`), as Curator's getParticipants() reports them: sorted by
 * sequence, the participant id read from each node's data (UTF-8), the first node read being the leader
 * (curator/leader.md §7).
 */
import { sortContenders } from '@zkwire/recipes';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { hex } from '../stat-format.js';
import { childrenOrNone, readNodes } from './recipe-nodes.js';

const LATCH_NAME = 'latch-';
const SELECTOR_NAME = 'lock-';

/** One participant of an election. */
export interface ParticipantView {
  id: string;
  node: string;
  session: string;
  isLeader: boolean;
}

/** What `leader` reports. */
export interface LeaderReport {
  path: string;
  recipe: 'LeaderLatch' | 'LeaderSelector' | 'none';
  leader: ParticipantView | null;
  participants: ParticipantView[];
}

/** LeaderLatch nodes hold `latch-`; anything else is read as a LeaderSelector's mutex. */
export function electionRecipeOf(children: readonly string[]): LeaderReport['recipe'] {
  if (children.length === 0) return 'none';
  return children.some((name) => name.includes(LATCH_NAME)) ? 'LeaderLatch' : 'LeaderSelector';
}

function render(context: CommandContext, report: LeaderReport): string[] {
  const { colors } = context.out;
  if (!report.leader) return [`${report.path}: no participants (no leader)`];
  return [
    `${report.path}: ${report.recipe}`,
    `${colors.bold('leader')}: ${colors.green(report.leader.id || '(empty id)')}  ${colors.yellow(`session ${report.leader.session}`)}  ${colors.dim(report.leader.node)}`,
    colors.bold(`participants (${report.participants.length})`),
    ...report.participants.map(
      (p, index) =>
        `  ${String(index + 1).padStart(2)}. ${p.isLeader ? colors.green(p.id || '(empty id)') : p.id || '(empty id)'}  ${colors.yellow(`session ${p.session}`)}  ${colors.dim(p.node)}`,
    ),
  ];
}

const leader: CommandSpec = {
  name: 'leader',
  args: ['<path>'],
  summary: 'the leader and participants of a Curator LeaderLatch or LeaderSelector',
  async run(context, [path]) {
    const electionPath = path as string;
    const children = await childrenOrNone(context, electionPath);
    const recipe = electionRecipeOf(children);
    const lockName = recipe === 'LeaderLatch' ? LATCH_NAME : SELECTOR_NAME;
    const nodes = await readNodes(context, electionPath, sortContenders(children, lockName));
    const participants = nodes.map((node, index) => ({
      id: node.data ? node.data.toString('utf8') : '',
      node: node.name,
      session: hex(node.stat.ephemeralOwner),
      isLeader: index === 0,
    }));
    const report: LeaderReport = {
      path: electionPath,
      recipe,
      leader: participants[0] ?? null,
      participants,
    };
    context.out.result(report, () => render(context, report));
  },
};

/** The leader command. */
export const leaderCommands: readonly CommandSpec[] = [leader];
