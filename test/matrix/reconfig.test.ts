/*
 * The version matrix's reconfig check: on a reconfig-enabled three-member ensemble of the run's release
 * (ZKWIRE_ZK_VERSION; dynamic reconfiguration exists from 3.5.3), a member leaves and joins again through the
 * client's reconfig, and a client keeps its session throughout.
 */
import { type Ensemble, findZooKeeper, startEnsemble } from '@zkwire/testing';
import { connect, parseEnsembleConfig, type ZooKeeperClient } from '@zkwire/zk-wire-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const VERSION = findZooKeeper().version;
/** The member the admin client is on, never removed (a member that leaves drops its connections). */
const ADMIN_MEMBER = 0;

let ensemble: Ensemble;
let admin: ZooKeeperClient;

beforeAll(async () => {
  ensemble = await startEnsemble({ size: 3, reconfig: true, tickTime: 500, version: VERSION });
  admin = await connect({
    connectString: ensemble.members[ADMIN_MEMBER]!.connectString,
    sessionTimeoutMs: 10_000,
  });
  const superUser = ensemble.superUser!;
  await admin.addAuth(superUser.scheme, superUser.credentials);
});

afterAll(async () => {
  await admin?.close();
  await ensemble?.[Symbol.asyncDispose]();
});

async function memberIds(): Promise<number[]> {
  await admin.sync('/');
  return parseEnsembleConfig((await admin.getConfig()).data)
    .members.map((member) => member.id)
    .sort();
}

describe(`reconfig on a ZooKeeper ${VERSION} ensemble`, () => {
  it('removes a member and adds it back, the session kept', async () => {
    expect(await memberIds()).toEqual([1, 2, 3]);
    const leader = await ensemble.leader();
    // Neither the admin's member nor the leader leaves, so the admin's connection and the quorum stay.
    const leaving = [0, 1, 2].find((i) => i !== ADMIN_MEMBER && i !== leader)!;
    const session = admin.sessionId;
    const left = await admin.reconfig({ leaving: [String(leaving + 1)] });
    expect(parseEnsembleConfig(left.data).members.map((m) => m.id)).not.toContain(leaving + 1);
    expect(await memberIds()).not.toContain(leaving + 1);
    await admin.reconfig({ joining: [ensemble.serverLine(leaving)] });
    expect(await memberIds()).toEqual([1, 2, 3]);
    expect(admin.sessionId).toBe(session);
    await admin.create('/after-reconfig', 'x');
    expect((await admin.getData('/after-reconfig')).data.toString()).toBe('x');
  });
});
