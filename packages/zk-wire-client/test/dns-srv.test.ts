/**
 * `dns-srv://` connect strings against a real 3-member ensemble and a real DNS server on loopback (Debian's
 * dnsmasq, started by the test, asked through the `dnsServers` option): the client connects to the targets
 * of the SRV records, with the connect string's chroot; records changed while it runs move it after a
 * refresh, with its session; lower priorities are tried first; a failed refresh keeps the servers; a name
 * without records ends the client with DnsSrvLookupError; bad options are refused before anything is sent.
 * Where a client is comes from the servers (`cons`), never from the client's own account.
 */
import { createSocket } from 'node:dgram';
import {
  type Dnsmasq,
  type Ensemble,
  freePort,
  type SrvRecordSpec,
  startDnsmasq,
  startEnsemble,
  type ZooKeeperServer,
} from '@zkwire/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientClosedError,
  connect,
  createClient,
  DnsSrvLookupError,
  InvalidArgumentError,
  isDnsSrvLookupError,
  type Logger,
  type ZooKeeperClient,
} from '../src/index.js';
import { failOnProcessErrors, until } from './faults-helpers.js';

failOnProcessErrors();

let ensemble: Ensemble;
let dns: Dnsmasq;
/** Clients of the running test, closed after it. */
let clients: ZooKeeperClient[] = [];

beforeAll(async () => {
  [ensemble, dns] = await Promise.all([startEnsemble({ size: 3 }), startDnsmasq({ records: [] })]);
});
afterEach(async () => {
  await Promise.all(clients.map((zk) => zk.close()));
  clients = [];
});
afterAll(async () => {
  await dns?.stop();
  await ensemble?.[Symbol.asyncDispose]();
});

/** An SRV record of `name` pointing at a member's client port. */
function srv(name: string, member: ZooKeeperServer, priority = 0, weight = 0): SrvRecordSpec {
  return { name, target: member.host, port: member.port, priority, weight };
}

/** Serves `records` for `name`, and keeps the other names' records. */
async function serve(name: string, records: readonly SrvRecordSpec[]): Promise<void> {
  await dns.setRecords([...dns.records.filter((r) => r.name !== name), ...records]);
}

const address = (member: ZooKeeperServer) => `${member.host}:${member.port}`;

/** The member index whose `cons` lists the client's session, or -1 while it is on none. */
async function memberOf(zk: ZooKeeperClient): Promise<number> {
  const id = `sid=0x${zk.sessionId.toString(16)}`;
  const cons = await Promise.all(
    ensemble.members.map((member) => member.fourLetterWord('cons').catch(() => '')),
  );
  return cons.findIndex((text) => text.includes(id));
}

async function settledMemberOf(zk: ZooKeeperClient): Promise<number> {
  let where = -1;
  await until(async () => {
    where = zk.state === 'connected' ? await memberOf(zk) : -1;
    return where >= 0;
  });
  return where;
}

function track(zk: ZooKeeperClient): ZooKeeperClient {
  clients.push(zk);
  return zk;
}

/** A logger that records `level message` lines. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

describe('dns-srv:// connect strings', () => {
  it('connects to the targets of the SRV records, under the chroot of the connect string', async () => {
    const name = '_zookeeper._tcp.first.zkwire.test';
    const [m0, m1] = ensemble.members as [ZooKeeperServer, ZooKeeperServer];
    await serve(name, [srv(name, m0), srv(name, m1)]);
    const zk = track(
      await connect({
        connectString: `dns-srv://${name}/dns-app`,
        dnsServers: [dns.server],
        ensureChroot: true,
      }),
    );
    expect(zk.chrootPrefix).toBe('/dns-app');
    expect(new Set(zk.serverList)).toEqual(new Set([address(m0), address(m1)]));
    expect([0, 1]).toContain(await settledMemberOf(zk));
    await zk.create('/node', 'through SRV');
    const plain = track(await connect({ connectString: ensemble.connectString }));
    expect((await plain.getData('/dns-app/node')).data.toString()).toBe('through SRV');
  });

  it('records changed while it runs: after a refresh it leaves a removed server for an added one, with its session', async () => {
    const name = '_zookeeper._tcp.moving.zkwire.test';
    const members = ensemble.members;
    await serve(name, [srv(name, members[0]!), srv(name, members[1]!)]);
    const zk = track(
      await connect({
        connectString: `dns-srv://${name}`,
        dnsServers: [dns.server],
        dnsSrvRefreshMs: 200,
      }),
    );
    const states: string[] = [];
    zk.on('state', (state) => states.push(state));
    const sessionId = zk.sessionId;
    await zk.create('/dns-moving', '', { mode: 'ephemeral' });
    const first = await settledMemberOf(zk);
    const other = first === 0 ? 1 : 0;
    // The server it is on leaves the records, the third member joins them.
    await serve(name, [srv(name, members[other]!), srv(name, members[2]!)]);
    let now = first;
    await until(async () => {
      now = await settledMemberOf(zk);
      return now !== first;
    });
    expect([other, 2]).toContain(now);
    expect(new Set(zk.serverList)).toEqual(new Set([address(members[other]!), address(members[2]!)]));
    expect(zk.sessionId).toBe(sessionId);
    expect(await zk.exists('/dns-moving')).not.toBeNull();
    expect(states).not.toContain('lost');
  });

  it('servers added to the records: some clients move to them, not all (the rebalance of updateServerList)', async () => {
    const name = '_zookeeper._tcp.growing.zkwire.test';
    const [m0, m1, m2] = ensemble.members as [ZooKeeperServer, ZooKeeperServer, ZooKeeperServer];
    await serve(name, [srv(name, m0)]);
    // Each stays with probability 1/3: all 24 stay, or all move, by a chance below 1 in 10,000.
    const many = await Promise.all(
      Array.from({ length: 24 }, async () =>
        track(
          await connect({
            connectString: `dns-srv://${name}`,
            dnsServers: [dns.server],
            dnsSrvRefreshMs: 200,
          }),
        ),
      ),
    );
    const sessions = many.map((zk) => zk.sessionId);
    await serve(name, [srv(name, m0), srv(name, m1), srv(name, m2)]);
    await until(() => many.every((zk) => zk.serverList.length === 3));
    const where = await Promise.all(many.map(settledMemberOf));
    const stayed = where.filter((i) => i === 0).length;
    expect(stayed).toBeGreaterThan(0);
    expect(stayed).toBeLessThan(many.length);
    expect(many.map((zk) => zk.sessionId)).toEqual(sessions);
  });

  it('tries lower priorities first: the priority-0 server takes every client, a down one is passed over', async () => {
    const name = '_zookeeper._tcp.priority.zkwire.test';
    const [m0, m1, m2] = ensemble.members as [ZooKeeperServer, ZooKeeperServer, ZooKeeperServer];
    await serve(name, [srv(name, m0, 10, 50), srv(name, m1, 10, 50), srv(name, m2, 0, 1)]);
    const many = await Promise.all(
      Array.from({ length: 6 }, async () =>
        track(await connect({ connectString: `dns-srv://${name}`, dnsServers: [dns.server] })),
      ),
    );
    for (const zk of many) {
      expect(zk.serverList[0]).toBe(address(m2));
      expect(await settledMemberOf(zk)).toBe(2);
    }
    // Priority 0 points at a port nobody listens on: the client falls back to priority 10.
    const down = { name, target: '127.0.0.1', port: await freePort(), priority: 0, weight: 0 };
    await serve(name, [down, srv(name, m1, 10, 0)]);
    const fallback = track(await connect({ connectString: `dns-srv://${name}`, dnsServers: [dns.server] }));
    expect(fallback.serverList).toEqual([`127.0.0.1:${down.port}`, address(m1)]);
    expect(await settledMemberOf(fallback)).toBe(1);
  });

  it('a failed refresh keeps the servers it has, and logs it', async () => {
    const name = '_zookeeper._tcp.kept.zkwire.test';
    const m0 = ensemble.members[0]!;
    await serve(name, [srv(name, m0)]);
    const logger = recordingLogger();
    const zk = track(
      await connect({
        connectString: `dns-srv://${name}`,
        dnsServers: [dns.server],
        dnsSrvRefreshMs: 100,
        logger,
      }),
    );
    // The name's records go: the refresh finds none (NXDOMAIN).
    await serve(name, []);
    await until(() =>
      logger.lines.some((line) => line.startsWith('warn zookeeper: refreshing the servers failed')),
    );
    const warning = logger.lines.find((line) => line.includes('refreshing the servers failed'));
    expect(warning).toContain(`DNS SRV lookup of ${name}`);
    expect(warning).toContain(`keeping 1 server: ${address(m0)}`);
    expect(zk.serverList).toEqual([address(m0)]);
    expect(zk.state).toBe('connected');
    await zk.create('/dns-kept', '');
    await zk.delete('/dns-kept');
  });

  it('a name without SRV records is refused at connect with DnsSrvLookupError', async () => {
    const refused = connect({
      connectString: 'dns-srv://_zookeeper._tcp.missing.zkwire.test/app',
      dnsServers: [dns.server],
    });
    await expect(refused).rejects.toBeInstanceOf(DnsSrvLookupError);
    await expect(refused).rejects.toMatchObject({
      code: 'DNSSRVLOOKUP',
      reason: 'no-records',
      dnsCode: 'ENOTFOUND',
      srvName: '_zookeeper._tcp.missing.zkwire.test',
      retryable: false,
    });
    // createClient's client ends the same way; its calls are refused with the same error.
    const zk = createClient({
      connectString: 'dns-srv://_zookeeper._tcp.missing.zkwire.test',
      dnsServers: [dns.server],
    });
    track(zk);
    const error = await zk.connected().catch((e: unknown) => e);
    expect(isDnsSrvLookupError(error)).toBe(true);
    expect(zk.state).toBe('closed');
    await expect(zk.exists('/')).rejects.toSatisfy(isDnsSrvLookupError);
    // A DNS server that refuses the name (outside its zone): the lookup failed, not "no records".
    await expect(
      connect({ connectString: 'dns-srv://_zookeeper._tcp.elsewhere.test', dnsServers: [dns.server] }),
    ).rejects.toMatchObject({ reason: 'lookup-failed', dnsCode: 'EREFUSED' });
  });

  it('a DNS server that never answers: the lookup fails with ETIMEOUT; a close during the lookup ends it', async () => {
    // A UDP socket that reads queries and never answers: a black-holed DNS server.
    const silent = createSocket('udp4');
    silent.on('message', () => {});
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const silentServer = `127.0.0.1:${silent.address().port}`;
    try {
      const connectString = `dns-srv://_zookeeper._tcp.first.zkwire.test`;
      await expect(connect({ connectString, dnsServers: [silentServer] })).rejects.toMatchObject({
        code: 'DNSSRVLOOKUP',
        reason: 'lookup-failed',
        dnsCode: 'ETIMEOUT',
      });
      const zk = createClient({ connectString, dnsServers: [silentServer] });
      const waiting = zk.connected().catch((e: unknown) => e);
      await zk.close();
      expect(await waiting).toBeInstanceOf(ClientClosedError);
      expect(zk.state).toBe('closed');
    } finally {
      silent.close();
    }
  });

  it('refuses bad options and connect strings before anything is sent', async () => {
    const connectString = 'dns-srv://_zookeeper._tcp.first.zkwire.test';
    const refused = (options: Record<string, unknown>, argument: string) => {
      let thrown: unknown;
      try {
        track(createClient({ connectString, ...options }));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(options)).toBeInstanceOf(InvalidArgumentError);
      expect((thrown as InvalidArgumentError).argument).toBe(argument);
    };
    for (const value of [-1, 1.5, '60000', Number.NaN, 86_400_001])
      refused({ dnsSrvRefreshMs: value }, 'dnsSrvRefreshMs');
    for (const value of [
      [],
      ['dns.example.org'],
      ['127.0.0.1:99999'],
      ['127.0.0.1:0'],
      '127.0.0.1',
      [53],
      [''],
    ]) {
      refused({ dnsServers: value }, 'dnsServers');
    }
    for (const bad of [
      'dns-srv://',
      'dns-srv://zk.example.org:2181',
      'dns-srv://a.org,b.org',
      'dns-srv://x.org/bad/',
    ]) {
      refused({ connectString: bad }, 'connectString');
    }
    // A host list client refuses bad values too (a shared configuration shows them at once).
    refused({ connectString: ensemble.connectString, dnsSrvRefreshMs: -5 }, 'dnsSrvRefreshMs');
    // updateServerList takes host lists only.
    const zk = track(await connect({ connectString: ensemble.connectString }));
    expect(() => zk.updateServerList(connectString)).toThrow(InvalidArgumentError);
    expect(zk.state).toBe('connected');
  });
});
