/**
 * Keeps Tab a completion key in the REPL, however fast it is pressed and however slow the server.
 *
 * Node's readline takes the keys of one read from the terminal as a paste and inserts a Tab among them as a
 * literal TAB character (`ls /repl/^Ic`, then `too many arguments`): two Tabs pressed quickly, or Tab and the
 * next letter, can arrive in one read, more so while completion waits for the server. And keys of the read that
 * started a completion go into the line while the server's answer is still on its way, before it.
 *
 * So the guard stands between the terminal's keys and readline: every Tab is handed over with completion
 * enabled, and the keys that come while a completion is loading are held and handed over, in order, once its
 * result is in the line (a Tab among them lists the candidates, as a second Tab does; Tabs in a row count once).
 */
import type { Interface } from 'node:readline';

/** A key as readline's keypress events describe it. */
interface Key {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

type KeypressListener = (text: string | undefined, key: Key | undefined) => void;

/** readline's completer, callback form. */
export type Completer = (line: string, callback: (error: null, result: [string[], string]) => void) => void;

/** The input readline reads keys from (it emits `keypress` events once readline is set up on it). */
interface KeyInput {
  listeners(event: 'keypress'): Function[];
  on(event: 'keypress', listener: KeypressListener): unknown;
  off(event: 'keypress', listener: Function): unknown;
}

const isTab = (key: Key | undefined) => key?.name === 'tab' && !key.ctrl && !key.meta;

export class TabKeyGuard {
  private completing = false;
  private readonly held: Array<[string | undefined, Key | undefined]> = [];
  private readline: Interface | undefined;
  private deliverTo: KeypressListener[] = [];

  /** `completer` wrapped so that the guard knows when a completion is loading. */
  wrap(completer: Completer): Completer {
    return (line, callback) => {
      this.completing = true;
      completer(line, (error, result) => {
        this.completing = false;
        callback(error, result);
        // readline puts the result into the line a few promise steps later: the held keys come after it.
        setImmediate(() => this.release());
      });
    };
  }

  /**
   * Puts the guard between `input` and `readline` (created with a completer from {@link wrap}, on a terminal):
   * readline's own keypress listener is called through the guard from now on.
   */
  attach(input: KeyInput, readline: Interface): void {
    this.readline = readline;
    this.deliverTo = input.listeners('keypress') as KeypressListener[];
    for (const listener of this.deliverTo) input.off('keypress', listener);
    const onKeypress: KeypressListener = (text, key) => this.keypress(text, key);
    input.on('keypress', onKeypress);
    readline.once('close', () => {
      input.off('keypress', onKeypress);
      this.held.length = 0;
    });
  }

  private keypress(text: string | undefined, key: Key | undefined): void {
    if (this.completing || this.held.length > 0) {
      const last = this.held[this.held.length - 1];
      if (!(isTab(key) && last !== undefined && isTab(last[1]))) this.held.push([text, key]);
      return;
    }
    this.deliver(text, key);
  }

  private deliver(text: string | undefined, key: Key | undefined): void {
    // readline completes on a Tab only when it ended its read (`isCompletionEnabled`); any other is a paste's.
    if (isTab(key) && this.readline)
      (this.readline as { isCompletionEnabled?: boolean }).isCompletionEnabled = true;
    for (const listener of this.deliverTo) listener(text, key);
  }

  /** Hands the held keys over until one of them starts another completion (the rest wait for that one). */
  private release(): void {
    while (!this.completing && this.held.length > 0) {
      const [text, key] = this.held.shift() as [string | undefined, Key | undefined];
      this.deliver(text, key);
    }
  }
}
