/**
 * A real terminal for the REPL tests: a tmux server on a private socket (a file in the test's temporary
 * directory, so nothing is left in /tmp/tmux-*), one window running the command,
 * keys typed with send-keys and the screen read back with capture-pane.
 */
import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The least time between two sends, as a person types. Node's readline takes keys that arrive in one read as a
 * paste and inserts a Tab among them literally instead of completing, so text and a Tab sent back to back can
 * turn into "get /tab-\t\t" (seen in CI). A quarter second apart, each send is a read of its own.
 */
const SEND_SPACING_MS = 250;
/** What Atomics.wait sleeps on (nothing ever wakes it: it times out). */
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Whether tmux can be run here (scripts/setup.sh installs it; the tests skip only without it). */
export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** One tmux window running one command. */
export class TmuxTerminal {
  private lastSendAt = 0;

  private constructor(private readonly socket: string) {}

  /** Starts `command` (a shell command line) in a detached window of `width` x `height`; `socket` is a path. */
  static start(socket: string, command: string, width = 140, height = 50): TmuxTerminal {
    const terminal = new TmuxTerminal(socket);
    // The window stays after the command exits, so that its last screen can still be read.
    terminal.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      String(width),
      '-y',
      String(height),
      'sleep 3600',
    );
    terminal.tmux('set-option', '-g', 'remain-on-exit', 'on');
    terminal.tmux('respawn-pane', '-k', command);
    return terminal;
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** Types keys: literal text, or tmux key names (`Enter`, `Tab`, `C-c`, `C-d`, `Up`). */
  keys(...keys: string[]): void {
    this.send(['send-keys', '-t', '0', ...keys]);
  }

  /** Types text literally (no key-name lookup). */
  type(text: string): void {
    this.send(['send-keys', '-t', '0', '-l', text]);
  }

  /**
   * One send, at least SEND_SPACING_MS after the one before; the wait is synchronous, since the tests call
   * keys() and type() without await.
   */
  private send(args: string[]): void {
    const wait = this.lastSendAt + SEND_SPACING_MS - Date.now();
    if (wait > 0) Atomics.wait(sleepCell, 0, 0, wait);
    this.tmux(...args);
    this.lastSendAt = Date.now();
  }

  /** The visible screen, trailing whitespace removed (so a prompt ends in `>`, not `> `). */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', '0').replace(/\s+$/, '');
  }

  /** Waits until the screen matches `pattern`; returns the screen, or throws showing it. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > until) throw new Error(`screen never matched ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends this tmux server (only ours: it has its own socket). */
  kill(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server'], { stdio: 'ignore' });
  }
}
