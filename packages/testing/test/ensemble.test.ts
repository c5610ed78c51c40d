import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ensemble, parseMntr, startEnsemble } from '../src/index.js';
import { connectRequestFrame, FrameReader, RawSession } from './raw-client.js';

describe('startEnsemble', () => {
  let ensemble: Ensemble;

  beforeAll(async () => {
    ensemble = await startEnsemble({ size: 3 });
  });
  afterAll(async () => {
    await ensemble?.[Symbol.asyncDispose]();
  });

  it('elects exactly one leader and lists every member in the connect string', async () => {
    expect(ensemble.members).toHaveLength(3);
    expect(ensemble.connectString.split(',')).toEqual(ensemble.members.map((member) => member.connectString));
    const modes = await Promise.all(ensemble.members.map((member) => member.mode()));
    expect(modes.filter((mode) => mode === 'leader')).toHaveLength(1);
    expect(modes.filter((mode) => mode === 'follower')).toHaveLength(2);
    const leader = await ensemble.leader();
    expect(modes[leader]).toBe('leader');
    const mntr = parseMntr(await ensemble.members[leader]!.fourLetterWord('mntr'));
    expect(mntr.get('zk_synced_followers')).toBe('2');
  });

  it('elects a new leader when the leader is killed, and keeps the data written before', async () => {
    const first = ensemble.members[0]!;
    const writer = await RawSession.open(first.host, first.port);
    expect(await writer.create('/survives', Buffer.from('written before the crash'))).toBe(0);
    writer.close();

    const oldLeader = await ensemble.leader();
    await ensemble.kill(oldLeader);
    expect(ensemble.members[oldLeader]!.running).toBe(false);
    await ensemble.waitForQuorum();
    const newLeader = await ensemble.leader();
    expect(newLeader).not.toBe(oldLeader);

    for (const [i, member] of ensemble.members.entries()) {
      if (i === oldLeader) continue;
      const reader = await RawSession.open(member.host, member.port);
      expect((await reader.getData('/survives'))?.toString()).toBe('written before the crash');
      reader.close();
    }

    // The crashed member rejoins as a follower and has the data too.
    await ensemble.start(oldLeader);
    expect(await ensemble.members[oldLeader]!.mode()).toBe('follower');
    const rejoined = ensemble.members[oldLeader]!;
    const reader = await RawSession.open(rejoined.host, rejoined.port);
    expect((await reader.getData('/survives'))?.toString()).toBe('written before the crash');
    reader.close();
  });

  it('restarts one member and all members', async () => {
    await ensemble.restart(0);
    expect(await ensemble.members[0]!.mode()).toMatch(/^(leader|follower)$/);
    await ensemble.stopAll();
    expect(ensemble.members.every((member) => !member.running)).toBe(true);
    await expect(ensemble.waitForQuorum()).rejects.toThrow(/majority/);
    await ensemble.startAll();
    expect(await ensemble.leader()).toBeGreaterThanOrEqual(0);
  });
});

describe('startEnsemble with read-only mode', () => {
  let ensemble: Ensemble;

  beforeAll(async () => {
    // Both settings are needed in 3.8.0 (server-setup.md §3).
    ensemble = await startEnsemble({
      jvmFlags: ['-Dreadonlymode.enabled=true'],
      config: { localSessionsEnabled: true, localSessionsUpgradingEnabled: true },
    });
  });
  afterAll(async () => {
    await ensemble?.[Symbol.asyncDispose]();
  });

  it('leaves a lone survivor serving read-only clients', async () => {
    await ensemble.kill(0);
    await ensemble.kill(1);
    const survivor = ensemble.members[2]!;
    while ((await survivor.mode()) !== 'read-only') await new Promise((resolve) => setTimeout(resolve, 100));

    const socket = connect({ host: survivor.host, port: survivor.port });
    const reader = new FrameReader(socket);
    socket.write(connectRequestFrame(10_000, true));
    const response = await reader.next();
    socket.destroy();
    expect(response.length).toBe(37);
    expect(response.readUInt8(36)).toBe(1); // the server says the session is read-only

    await ensemble.startAll();
    expect(await ensemble.members[2]!.mode()).toMatch(/^(leader|follower)$/);
  });
});
