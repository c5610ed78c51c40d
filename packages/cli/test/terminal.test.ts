/**
 * The REPL as a person uses it: `zkwire` started in a real terminal (tmux), commands typed key by key, Tab
 * completion of commands and znode paths, Ctrl-C cancelling a running command and clearing a half-typed
 * line, Up recalling history, Ctrl-D leaving; every check reads the screen back. A second terminal reaches
 * the server through a fault proxy: Tab against a slow server, and a session that expires.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, type FaultProxy, startFaultProxy } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCliServer } from './helpers/cli-server.js';
import { TmuxTerminal, tmuxAvailable } from './helpers/tmux.js';

// `npm test` installs tmux (scripts/setup.sh) as it installs ZooKeeper: a missing one is a broken setup,
// reported as a failure of every test below with what to install, never a skip.
const hasTmux = tmuxAvailable();
const NO_TMUX = 'tmux is not installed: run scripts/setup.sh (or apt-get install tmux)';

const cli = useCliServer({ enabled: hasTmux });
const dir = mkdtempSync(join(tmpdir(), 'zkwire-term-'));
const historyFile = join(dir, 'history');
/** The shell in the pane writes the REPL's exit code here when it ends (tmux's own pane status is not reliable). */
const exitFile = join(dir, 'exit-code');
let terminal: TmuxTerminal | undefined;

/** The terminal the REPL runs in; without tmux, the reason instead of a TypeError. */
function pane(): TmuxTerminal {
  if (terminal === undefined) throw new Error(hasTmux ? 'the terminal did not start' : NO_TMUX);
  return terminal;
}

/** The REPL's exit code, once the pane's shell has written it (waits up to 15 s; undefined if it never did). */
async function exitCode(): Promise<number | undefined> {
  for (let i = 0; i < 300; i++) {
    if (existsSync(exitFile)) {
      const text = readFileSync(exitFile, 'utf8').trim();
      if (text !== '') return Number(text);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

/** The prompt after `n` commands. */
const prompt = (n: number) => new RegExp(`zkwire 127\\.0\\.0\\.1:\\d+ connected ${n}>$`);

beforeAll(async () => {
  if (!hasTmux) return;
  await cli.zk.create('/completion-target-xyz', 'found me');
  await cli.zk.create('/tab-one', '1');
  await cli.zk.create('/tab-two', '2');
  const env = `ZKWIRE_HISTORY=${historyFile} ZKWIRE_SERVER=${cli.server.connectString}`;
  terminal = TmuxTerminal.start(
    join(dir, 'tmux.sock'),
    `env ${env} ${process.execPath} ${cli.bundle.file}; echo $? > ${exitFile}`,
  );
});

afterAll(() => {
  terminal?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('zkwire in a terminal (tmux)', () => {
  it('has tmux to run in', () => {
    expect(hasTmux, NO_TMUX).toBe(true);
  });

  it('shows a prompt and runs a typed command', async () => {
    const term = pane();
    await term.waitFor(prompt(0));
    term.type('get /completion-target-xyz');
    term.keys('Enter');
    const screen = await term.waitFor(prompt(1));
    expect(screen).toMatch(/get \/completion-target-xyz\nfound me\n/);
  });

  it('Tab completes a command name, then a znode path listed from the server', async () => {
    const term = pane();
    term.type('getAllChildrenN');
    term.keys('Tab');
    await term.waitFor(/1> getAllChildrenNumber$/);
    term.type(' /completion-ta');
    term.keys('Tab');
    await term.waitFor(/1> getAllChildrenNumber \/completion-target-xyz$/);
    term.keys('Enter');
    const screen = await term.waitFor(prompt(2));
    expect(screen).toMatch(/getAllChildrenNumber \/completion-target-xyz\n0\n/);
  });

  it('Tab twice lists the candidates when several paths match', async () => {
    const term = pane();
    term.type('get /tab-');
    term.keys('Tab');
    term.keys('Tab');
    await term.waitFor(/\/tab-one\s+\/tab-two/);
    term.type('t');
    term.keys('Tab');
    await term.waitFor(/2> get \/tab-two$/);
    term.keys('Enter');
    await term.waitFor(prompt(3));
  });

  it('Ctrl-C cancels a running command (watch) and the shell carries on', async () => {
    const term = pane();
    term.type('watch /');
    term.keys('Enter');
    await term.waitFor(/watching \/ and below; Ctrl-C to stop$/);
    // The watch is added just after the message: write until its event shows.
    let n = 0;
    const writer = setInterval(() => void cli.zk.create(`/while-watching-${n++}`, 'x').catch(() => {}), 200);
    try {
      await term.waitFor(/created\s+\/while-watching-\d+/);
    } finally {
      clearInterval(writer);
    }
    term.keys('C-c');
    await term.waitFor(prompt(4));
    term.type('get /tab-one');
    term.keys('Enter');
    const screen = await term.waitFor(prompt(5));
    expect(screen).toMatch(/get \/tab-one\n1\n/);
  });

  it('Ctrl-C at the prompt drops a half-typed line; Up recalls the last command', async () => {
    const term = pane();
    term.type('delete /tab-one');
    term.keys('C-c');
    await term.waitFor(/\^C\n.*5>$/);
    term.keys('Up');
    await term.waitFor(/5> get \/tab-one$/);
    term.keys('Enter');
    await term.waitFor(prompt(6));
    expect(await cli.zk.exists('/tab-one')).not.toBeNull(); // the dropped delete never ran
  });

  it('a watch event that arrives at the prompt is printed above it, and the prompt is drawn again', async () => {
    const term = pane();
    term.type('get -w /tab-two');
    term.keys('Enter');
    await term.waitFor(prompt(7));
    term.type('half');
    await cli.zk.setData('/tab-two', 'changed');
    const screen = await term.waitFor(/WatchedEvent type:dataChanged path:\/tab-two\n.*7> half$/);
    expect(screen).toMatch(/WATCHER::/);
    term.keys('C-u');
    await term.waitFor(prompt(7));
  });

  it("an error is printed in zkCli's words and the shell goes on; Ctrl-D leaves with exit code 0", async () => {
    const term = pane();
    term.type('get /no-such-node');
    term.keys('Enter');
    await term.waitFor(/Node does not exist: \/no-such-node\n.*8>$/);
    term.keys('C-d');
    expect(await exitCode()).toBe(0);
    const history = readFileSync(historyFile, 'utf8').trim().split('\n');
    expect(history).toEqual([
      'get /completion-target-xyz',
      'getAllChildrenNumber /completion-target-xyz',
      'get /tab-two',
      'watch /',
      'get /tab-one',
      'get /tab-one',
      'get -w /tab-two',
      'get /no-such-node',
    ]);
  });
});

describe('zkwire in a terminal, through a fault proxy (a slow server, an expiring session)', () => {
  const slowHistory = join(dir, 'slow-history');
  let proxy: FaultProxy | undefined;
  let slow: TmuxTerminal | undefined;
  const slowPrompt = (n: number) => new RegExp(`zkwire 127\\.0\\.0\\.1:\\d+ connected ${n}>$`);
  const slowPane = () => {
    if (slow === undefined) throw new Error(hasTmux ? 'the terminal did not start' : NO_TMUX);
    return slow;
  };

  beforeAll(async () => {
    if (!hasTmux) return;
    await cli.zk.create('/repl', null);
    await cli.zk.create('/repl/abc', null);
    await cli.zk.create('/repl/abd', null);
    proxy = await startFaultProxy({ host: cli.server.host, port: cli.server.port });
    // The shortest session the server grants (2 ticks), so that the expiry test waits little.
    const env = `ZKWIRE_HISTORY=${slowHistory} ZKWIRE_SERVER=${proxy.connectString} NO_COLOR=1`;
    slow = TmuxTerminal.start(
      join(dir, 'tmux-slow.sock'),
      `env ${env} ${process.execPath} ${cli.bundle.file} --session-timeout 4000`,
    );
  });

  afterAll(async () => {
    slow?.kill();
    await proxy?.close();
  });

  it('Tab never inserts a TAB: two Tabs in one read, then Tab and a letter in one read, while the server is slow', async () => {
    const term = slowPane();
    await term.waitFor(slowPrompt(0));
    // Every byte both ways waits: each listing takes about a second, so the keys below come while it loads.
    proxy?.delay(500);
    try {
      term.type('ls /repl/');
      term.keys('Tab', 'Tab'); // one send, one read: readline took the first for a pasted TAB
      // The first Tab completes the common part, the second (held until then) lists the candidates.
      await term.waitFor(/\/repl\/abc\s+\/repl\/abd\n+.*0> ls \/repl\/ab$/);
      term.keys('Tab', 'c');
      await term.waitFor(/0> ls \/repl\/abc$/);
    } finally {
      proxy?.delay(0);
    }
    term.keys('Enter');
    const screen = await term.waitFor(slowPrompt(1));
    expect(screen).toMatch(/ls \/repl\/abc\n\[\]\n/);
    expect(readFileSync(slowHistory, 'utf8')).toBe('ls /repl/abc\n');
  });

  it('after the session expires, the shell says to type connect; connect opens a new session', async () => {
    const term = slowPane();
    term.type('create -e /expiring x');
    term.keys('Enter');
    await term.waitFor(slowPrompt(2));
    const owner = proxy as FaultProxy;
    // Cut the connection and refuse new ones until the server has ended the session (its ephemeral is gone).
    owner.refuse(true);
    owner.cut();
    try {
      await eventually(async () => (await cli.zk.exists('/expiring')) === null, {
        what: 'the server to expire the session',
        timeoutMs: 30_000,
      });
    } finally {
      owner.refuse(false);
    }
    await term.waitFor(/session expired: .*type connect to open a new session\n.*expired 2>$/);
    term.type('get /repl');
    term.keys('Enter');
    await term.waitFor(/SESSIONEXPIRED: .*\n.*type connect to open a new session\n.*expired 3>$/);
    term.type('connect');
    term.keys('Enter');
    const screen = await term.waitFor(slowPrompt(4));
    expect(screen).toMatch(/Connected to 127\.0\.0\.1:\d+, session 0x[0-9a-f]+\n/);
  });
});
