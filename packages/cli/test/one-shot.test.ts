/**
 * Every zkCli command, run once each as a script would (`zkwire -s host:port <command>`), against a real
 * ZooKeeper 3.8 server; what it printed and its exit code are checked, and what it did is checked with a
 * client of the test's own. Session commands (connect, close, history, quit, and watches that need the same
 * session) run through piped standard input, the way a script feeds several commands to one session.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acls, digestId, Perms } from '@zkwire/zk-wire-client';
import { afterAll, describe, expect, it } from 'vitest';
import { useCliServer } from './helpers/cli-server.js';

const cli = useCliServer();
const files = mkdtempSync(join(tmpdir(), 'zkwire-files-'));
afterAll(() => rmSync(files, { recursive: true, force: true }));

describe('reads', () => {
  it('ls lists sorted children, with -s the Stat, with -R the subtree, with --json an object', async () => {
    await cli.zk.create('/ls/b/deep', 'x', { createParents: true });
    await cli.zk.create('/ls/a', 'x');
    const [plain, withStat, recursive, json] = await Promise.all([
      cli.run(['ls', '/ls']),
      cli.run(['ls', '-s', '/ls']),
      cli.run(['ls', '-R', '/ls']),
      cli.run(['ls', '/ls', '--json']),
    ]);
    expect(plain).toMatchObject({ code: 0, stdout: '[a, b]\n' });
    expect(withStat.stdout).toMatch(/^\[a, b\]\ncZxid = 0x[0-9a-f]+\n/);
    expect(withStat.stdout).toContain('numChildren = 2\n');
    expect(recursive.stdout).toBe('/ls\n/ls/a\n/ls/b\n/ls/b/deep\n');
    expect(JSON.parse(json.stdout)).toEqual({ path: '/ls', children: ['a', 'b'] });
  });

  it('get prints text as text, binary as 0x hex, and -s adds the Stat', async () => {
    await cli.zk.create('/get-text', 'héllo wörld');
    await cli.zk.create('/get-binary', Buffer.from([0x00, 0xff, 0x10, 0x80]));
    const [text, binary, withStat, json] = await Promise.all([
      cli.run(['get', '/get-text']),
      cli.run(['get', '/get-binary']),
      cli.run(['get', '-s', '/get-text']),
      cli.run(['--json', 'get', '/get-binary']),
    ]);
    expect(text).toMatchObject({ code: 0, stdout: 'héllo wörld\n' });
    expect(binary.stdout).toBe('0x00ff1080\n');
    expect(withStat.stdout).toMatch(/^héllo wörld\ncZxid = 0x/);
    expect(withStat.stdout).toContain(`dataLength = ${Buffer.byteLength('héllo wörld')}\n`);
    expect(JSON.parse(json.stdout)).toEqual({
      path: '/get-binary',
      data: { encoding: 'hex', value: '00ff1080' },
    });
  });

  it('get --out writes the raw bytes to a file; set --in reads them back from one', async () => {
    const bytes = Buffer.from([1, 2, 3, 0, 254, 255]);
    await cli.zk.create('/binary', bytes);
    const out = join(files, 'out.bin');
    const got = await cli.run(['get', '/binary', '--out', out]);
    expect(got.code).toBe(0);
    expect(readFileSync(out)).toEqual(bytes);

    const input = join(files, 'in.bin');
    writeFileSync(input, Buffer.from([9, 8, 7, 0xc3]));
    const set = await cli.run(['set', '/binary', '--in', input]);
    expect(set.code).toBe(0);
    expect((await cli.zk.getData('/binary')).data).toEqual(Buffer.from([9, 8, 7, 0xc3]));
  });

  it("stat prints the Stat; a missing node is zkCli's `Node does not exist` with exit code 1", async () => {
    await cli.zk.create('/stat', 'abc');
    const [found, missing, missingJson] = await Promise.all([
      cli.run(['stat', '/stat']),
      cli.run(['stat', '/stat-missing']),
      cli.run(['stat', '/stat-missing', '--json']),
    ]);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('dataVersion = 0\n');
    expect(found.stdout).toContain('dataLength = 3\n');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Node does not exist: /stat-missing\n');
    // JSON keeps the code and our message.
    expect(JSON.parse(missingJson.stderr)).toEqual({
      code: 'NONODE',
      error: 'NONODE: No node (exists /stat-missing)',
    });
  });

  it("stat and get -s print times as zkCli does (Java's Date.toString(), local time zone); JSON as ISO", async () => {
    await cli.zk.create('/dated', 'x');
    await cli.zk.setData('/dated', 'y');
    const stat = (await cli.zk.exists('/dated'))!;
    // `Tue, 01 Dec 2026 19:48:34 GMT` → `Tue Dec 01 19:48:34 UTC 2026`
    const inUtc = (millis: bigint) => {
      const [weekday, day, month, year, time] = new Date(Number(millis))
        .toUTCString()
        .replace(',', '')
        .split(' ');
      return `${weekday} ${month} ${day} ${time} UTC ${year}`;
    };
    const [utc, getStat, newYork, json] = await Promise.all([
      cli.run(['stat', '/dated'], { env: { TZ: 'UTC' } }),
      cli.run(['get', '-s', '/dated'], { env: { TZ: 'UTC' } }),
      cli.run(['stat', '/dated'], { env: { TZ: 'America/New_York' } }),
      cli.run(['stat', '/dated', '--json'], { env: { TZ: 'America/New_York' } }),
    ]);
    expect(utc.stdout).toContain(`\nctime = ${inUtc(stat.ctime)}\n`);
    expect(utc.stdout).toContain(`\nmtime = ${inUtc(stat.mtime)}\n`);
    expect(getStat.stdout).toContain(`\nmtime = ${inUtc(stat.mtime)}\n`);
    expect(newYork.stdout).toMatch(
      /\nctime = [A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} E[SD]T \d{4}\n/,
    );
    expect(JSON.parse(json.stdout).stat.mtime).toBe(new Date(Number(stat.mtime)).toISOString());
  });

  it('getAcl, getAllChildrenNumber, sync, whoami and config print what zkCli prints', async () => {
    await cli.zk.create('/count/a/b', 'x', { createParents: true });
    await cli.zk.create('/count/c', 'x');
    const [acl, count, sync, whoami, config] = await Promise.all([
      cli.run(['getAcl', '/count']),
      cli.run(['getAllChildrenNumber', '/count']),
      cli.run(['sync', '/count']),
      cli.run(['whoami']),
      cli.run(['config', '--json']),
    ]);
    expect(acl.stdout).toBe("'world,'anyone\n: cdrwa\n");
    expect(count.stdout).toBe('3\n');
    expect(sync.stdout).toBe('Sync is OK\n');
    expect(whoami.stdout).toBe('Auth scheme: User\nip: 127.0.0.1\n');
    expect(config.code).toBe(0);
    expect(JSON.parse(config.stdout)).toHaveProperty('config');
  });

  it('getEphemerals lists the ephemerals of its own session (fed through stdin to one session)', async () => {
    const run = await cli.run([], { input: 'create -e /eph-a 1\ncreate -e /eph-b 2\ngetEphemerals /\n' });
    expect(run.code).toBe(0);
    // Piped input gets no prompts: the output is exactly the commands' output.
    expect(run.stdout).toBe('Created /eph-a\nCreated /eph-b\n[/eph-a, /eph-b]\n');
    expect(await cli.zk.exists('/eph-a')).toBeNull(); // gone with the CLI's session
  });
});

describe('writes', () => {
  it('create: persistent, -e, -s, -e -s, -c, -t ttl; Created <path>', async () => {
    const runs = await Promise.all([
      cli.run(['create', '/c-persistent', 'data']),
      cli.run(['create', '-s', '/c-seq-', 'data']),
      cli.run(['create', '-c', '/c-container']),
      cli.run(['create', '-t', '60000', '/c-ttl', 'data']),
      cli.run(['create', '-e', '-s', '/c-eph-', 'data', '--json']),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs[0]?.stdout).toBe('Created /c-persistent\n');
    expect(runs[1]?.stdout).toMatch(/^Created \/c-seq-\d{10}\n$/);
    expect(JSON.parse(runs[4]?.stdout as string)).toMatchObject({ mode: 'ephemeral-sequential' });
    expect((await cli.zk.getData('/c-persistent')).data.toString()).toBe('data');
    const children = await cli.zk.getChildren('/');
    expect(children.some((name) => /^c-seq-\d{10}$/.test(name))).toBe(true);
    expect(children).toContain('c-container');
    expect(children).toContain('c-ttl');
    expect(children.some((name) => name.startsWith('c-eph-'))).toBe(false); // its session ended
  });

  it('create with an ACL and with bad flags: -e with -t, a bad ACL, an existing node', async () => {
    const ok = await cli.run(['create', '/c-acl', 'x', 'world:anyone:r']);
    expect(ok.code).toBe(0);
    expect((await cli.zk.getACL('/c-acl')).acl).toEqual(acls.readOnly());
    const [ephemeralTtl, badAcl, exists] = await Promise.all([
      cli.run(['create', '-e', '-t', '100', '/c-bad']),
      cli.run(['create', '/c-bad', 'x', 'world:anyone:xyz']),
      cli.run(['create', '/c-acl']),
    ]);
    expect(ephemeralTtl.code).toBe(2);
    expect(badAcl.code).toBe(2);
    expect(badAcl.stderr).toContain('xyz');
    expect(exists.code).toBe(1);
    expect(exists.stderr).toBe('Node already exists: /c-acl\n');
  });

  it("set [-v version] [-s]: a wrong version is BADVERSION, in zkCli's words", async () => {
    await cli.zk.create('/set', 'v0');
    const wrong = await cli.run(['set', '-v', '5', '/set', 'v1']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('version No is not valid : /set\n');
    const right = await cli.run(['set', '-s', '-v', '0', '/set', 'v1']);
    expect(right.code).toBe(0);
    expect(right.stdout).toContain('dataVersion = 1\n');
    expect((await cli.zk.getData('/set')).data.toString()).toBe('v1');
    const hex = await cli.run(['set', '/set', '0x00ff']);
    expect(hex.code).toBe(0);
    expect((await cli.zk.getData('/set')).data).toEqual(Buffer.from([0, 255]));
  });

  it('delete [-v version], and deleteall for a subtree; NOTEMPTY when delete meets children', async () => {
    await cli.zk.create('/del', 'x');
    await cli.zk.create('/del-tree/a/b', 'x', { createParents: true });
    const [badVersion, notEmpty] = await Promise.all([
      cli.run(['delete', '-v', '3', '/del']),
      cli.run(['delete', '/del-tree']),
    ]);
    expect(badVersion.stderr).toBe('version No is not valid : /del\n');
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toBe('Node not empty: /del-tree\n');
    const [deleted, deletedAll] = await Promise.all([
      cli.run(['delete', '-v', '0', '/del']),
      cli.run(['deleteall', '/del-tree']),
    ]);
    expect(deleted.code).toBe(0);
    expect(deletedAll.code).toBe(0);
    expect(await cli.zk.exists('/del')).toBeNull();
    expect(await cli.zk.exists('/del-tree')).toBeNull();
  });

  it('setAcl [-R] sets the ACL of a node or a whole subtree', async () => {
    await cli.zk.create('/acl-tree/child', 'x', { createParents: true });
    const one = await cli.run(['setAcl', '-s', '/acl-tree', 'world:anyone:cdrwa,ip:127.0.0.1:r']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('aclVersion = 1\n');
    const all = await cli.run(['setAcl', '-R', '/acl-tree', 'world:anyone:rw']);
    expect(all.code).toBe(0);
    expect((await cli.zk.getACL('/acl-tree/child')).acl).toEqual([
      { perms: Perms.READ | Perms.WRITE, id: { scheme: 'world', id: 'anyone' } },
    ]);
  });

  it('addauth and --auth / ZKWIRE_AUTH open digest-protected nodes; credentials are never printed', async () => {
    await cli.zk.create('/secret', 'hidden', { acl: [acls.digest('bob', 's3cret', Perms.ALL)] });
    const [denied, viaFlag, viaEnv, viaAddauth] = await Promise.all([
      cli.run(['get', '/secret']),
      cli.run(['--auth', 'digest:bob:s3cret', 'get', '/secret']),
      cli.run(['whoami'], { env: { ZKWIRE_AUTH: 'digest:bob:s3cret' } }),
      cli.run([], { input: 'addauth digest bob:s3cret\nget /secret\nhistory\n' }),
    ]);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toBe('Insufficient permission : /secret\n');
    expect(viaFlag).toMatchObject({ code: 0, stdout: 'hidden\n' });
    expect(viaEnv.stdout).toContain(`digest: bob`);
    expect(viaAddauth.stdout).toContain('hidden\n');
    expect(viaAddauth.stdout).toContain('0 - addauth digest ***\n');
    for (const run of [denied, viaFlag, viaEnv, viaAddauth]) {
      expect(run.stdout + run.stderr).not.toContain('s3cret');
    }
    expect(digestId('bob', 's3cret')).not.toContain('s3cret');
  });
});

describe('watches', () => {
  it('ls -w, get -w and stat -w print their event when it comes (one session, fed through stdin)', async () => {
    await cli.zk.create('/watched', 'a');
    const run = cli.run([], {
      input:
        'get -w /watched\nset /watched b\nls -w /watched\ncreate /watched/kid x\n' +
        'stat -w /watched/kid\ndelete /watched/kid\nsync /watched\n',
    });
    const { stdout, code } = await run;
    expect(code).toBe(0);
    expect(stdout).toContain('WatchedEvent type:dataChanged path:/watched');
    expect(stdout).toContain('WatchedEvent type:childrenChanged path:/watched');
    expect(stdout).toContain('WatchedEvent type:deleted path:/watched/kid');
  });

  it('addWatch [-m mode] streams events; removewatches removes the watch (NOWATCHER when none)', async () => {
    await cli.zk.create('/aw', 'a');
    const run = await cli.run([], {
      input:
        'addWatch -m PERSISTENT /aw\nset /aw b\nsync /aw\nremovewatches /aw\nset /aw c\nsync /aw\nremovewatches /aw\n',
    });
    expect(run.stdout.match(/type:dataChanged path:\/aw/g)).toHaveLength(1);
    expect(run.stdout).toContain('type:persistentWatchRemoved path:/aw');
    expect(run.code).toBe(1); // the last removewatches found nothing to remove
    expect(run.stderr).toMatch(/NOWATCHER: /);
    const badMode = await cli.run(['addWatch', '-m', 'SOMETIMES', '/aw']);
    expect(badMode.code).toBe(2);
  });

  it('watch streams persistent recursive events until Ctrl-C (SIGINT), then exits 0', async () => {
    await cli.zk.create('/stream', 'a');
    const { spawn } = await import('node:child_process');
    const child = spawn(
      process.execPath,
      [cli.bundle.file, '-s', cli.server.connectString, 'watch', '/stream'],
      {
        env: { ...process.env, NO_COLOR: '1' },
      },
    );
    let stdout = '';
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => stdout.includes(text) && resolve();
        child.stdout.on('data', (chunk) => {
          stdout += chunk;
          check();
        });
        check();
      });
    await seen('watching /stream');
    // The watch is added by the loop's first read, just after the message: write until an event shows.
    let n = 0;
    const writer = setInterval(() => void cli.zk.create(`/stream/n${n++}`, 'x').catch(() => {}), 200);
    await seen('created         /stream/n');
    clearInterval(writer);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});

describe('beyond zkCli', () => {
  it('tree draws sizes, child counts and ephemeral owners, with totals', async () => {
    await cli.zk.create('/tree/a', '12345', { createParents: true });
    await cli.zk.create('/tree/b/c', 'x', { createParents: true });
    const owner = `0x${cli.zk.sessionId.toString(16)}`;
    await cli.zk.create('/tree/b/e', 'yy', { mode: 'ephemeral' });
    const [text, json] = await Promise.all([
      cli.run(['tree', '/tree']),
      cli.run(['tree', '/tree', '--json']),
    ]);
    expect(text.stdout).toBe(
      [
        '/tree (0 B, 2 children)',
        '├── a (5 B)',
        '└── b (0 B, 2 children)',
        '    ├── c (1 B)',
        `    └── e (2 B, ephemeral ${owner})`,
        '5 nodes, 8 bytes of data, 1 ephemeral',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(json.stdout).totals).toEqual({ nodes: 5, bytes: 8, ephemeral: 1 });
    const shallow = await cli.run(['tree', '/tree', '-d', '1']);
    expect(shallow.stdout).toBe(
      [
        '/tree (0 B, 2 children)',
        '├── a (5 B)',
        '└── b (0 B, 2 children, not shown)',
        '3 nodes, 5 bytes of data, 0 ephemeral',
        '',
      ].join('\n'),
    );
  });

  it('tree of a wide node: many calls in flight on one signal, and nothing on stderr', async () => {
    await cli.zk.create('/wide', null);
    await Promise.all(Array.from({ length: 40 }, (_, i) => cli.zk.create(`/wide/n${i}`, 'x')));
    const run = await cli.run(['tree', '/wide']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('41 nodes, 40 bytes of data, 0 ephemeral');
    expect(run.stderr).toBe('');
  });

  it('the connect string comes from ZKWIRE_SERVER; a chroot in it applies', async () => {
    await cli.zk.create('/chroot/inside', 'x', { createParents: true });
    const { runCli } = await import('./helpers/cli-bundle.js');
    const run = await runCli(cli.bundle, ['ls', '/'], {
      env: { ZKWIRE_SERVER: `${cli.server.connectString}/chroot` },
    });
    expect(run).toMatchObject({ code: 0, stdout: '[inside]\n' });
  });

  it('usage errors exit 2: unknown command, missing argument, bad flag value, bad path', async () => {
    const runs = await Promise.all([
      cli.run(['frobnicate']),
      cli.run(['get']),
      cli.run(['delete', '-v', 'x', '/a']),
      cli.run(['ls', 'relative']),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain("unknown command 'frobnicate'");
    expect(runs[3]?.stderr).toMatch(/^BADARGUMENTS: /);
  });
});

describe('--version', () => {
  it('prints the version of the package', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const { runCli } = await import('./helpers/cli-bundle.js');
    const [long, short] = await Promise.all([runCli(cli.bundle, ['--version']), runCli(cli.bundle, ['-V'])]);
    expect(long).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(short).toEqual(long);
  });
});

describe('connection failures', () => {
  it('a server that does not answer: exit code 1, the server named, within --connect-timeout', async () => {
    const { freePort } = await import('@zkwire/testing');
    const { runCli } = await import('./helpers/cli-bundle.js');
    const nobody = `127.0.0.1:${await freePort()}`;
    const run = await runCli(cli.bundle, ['-s', nobody, '--connect-timeout', '1000', 'ls', '/']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `OPERATIONTIMEOUT: cannot connect to ${nobody}: no session within 1000 ms (is a server listening there? --connect-timeout to wait longer)\n`,
    );
  });
});

describe('session commands (through stdin)', () => {
  it('close, connect, history and quit', async () => {
    await cli.zk.create('/session', 'x');
    const run = await cli.run([], {
      input: `close\nget /session\nconnect ${cli.server.connectString}\nget /session\nhistory\nquit\nget /never\n`,
    });
    expect(run.stderr).toContain('not connected');
    expect(run.stdout).toMatch(/Connected to 127\.0\.0\.1:\d+, session 0x[0-9a-f]+\n/);
    expect(run.stdout).toContain('x\n');
    expect(run.stdout).toContain(`0 - close\n1 - get /session\n2 - connect ${cli.server.connectString}\n`);
    expect(run.stdout).not.toContain('/never');
    // The get after close failed (not connected, a usage error): a piped script exits with its first failure.
    expect(run.code).toBe(2);
  });
});

describe('scripts on stdin: exit codes and --stop-on-error', () => {
  it('a failure in the middle makes the exit code that of the first failure; the later commands still run', async () => {
    const run = await cli.run([], {
      input: 'create /script-a 1\nget /script-missing\nget\ncreate /script-b 2\n',
    });
    expect(run.code).toBe(1); // the NONODE, not the usage error after it, not the last command's 0
    expect(run.stderr).toContain('Node does not exist: /script-missing\n');
    expect(await cli.zk.exists('/script-b')).not.toBeNull();
  });

  it('with --stop-on-error, nothing runs after the first failure, whose code is the exit code', async () => {
    const run = await cli.run(['--stop-on-error'], {
      input: 'create /stop-a 1\nget\ncreate /stop-b 2\n',
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('Created /stop-a\n');
    expect(await cli.zk.exists('/stop-a')).not.toBeNull();
    expect(await cli.zk.exists('/stop-b')).toBeNull();
  });

  it('stopOnError on|off turns it on and off within a script; without an argument it shows the setting', async () => {
    const run = await cli.run([], {
      input:
        'stopOnError\nget /soe-missing-1\nstopOnError on\ncreate /soe-a 1\nget /soe-missing-2\ncreate /soe-b 2\n',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('stopOnError off\nstopOnError on\nCreated /soe-a\n');
    expect(run.stderr).toBe('Node does not exist: /soe-missing-1\nNode does not exist: /soe-missing-2\n');
    expect(await cli.zk.exists('/soe-b')).toBeNull();
    const bad = await cli.run(['stopOnError', 'sometimes']);
    expect(bad.code).toBe(2);
  });
});
