import { connect } from 'node:net';

/** Options of {@link fourLetterWord}. */
export interface FourLetterWordOptions {
  /**
   * How long to wait for the answer, in ms (default 2000). On expiry the bytes read so far are returned when
   * there are any, since a server still loading its data answers but never closes the socket.
   */
  timeoutMs?: number;
}

/**
 * Sends a four-letter word (`srvr`, `ruok`, `mntr`, `stat`, `cons`, `isro`, ...) to a ZooKeeper server and
 * returns its answer as text. Rejects when the connection fails or nothing arrives before the timeout.
 */
export function fourLetterWord(
  host: string,
  port: number,
  command: string,
  options: FourLetterWordOptions = {},
): Promise<string> {
  if (!/^[a-z]{4}$/.test(command)) {
    return Promise.reject(new TypeError(`fourLetterWord: "${command}" is not a four-letter word`));
  }
  const timeoutMs = options.timeoutMs ?? 2000;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ host, port });
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      if (error && text.length === 0) reject(error);
      else resolve(text);
    };
    const timer = setTimeout(
      () =>
        finish(
          new Error(`fourLetterWord: no answer to "${command}" from ${host}:${port} in ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    socket.on('connect', () => socket.write(command));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error) => finish(error));
  });
}

/** The server's role as `srvr` reports it, or undefined while it is not serving. */
export type ServerMode = 'standalone' | 'leader' | 'follower' | 'observer' | 'read-only';

/** Reads the `Mode:` line of a `srvr` or `stat` answer; undefined when there is none (not serving yet). */
export function parseMode(srvrAnswer: string): ServerMode | undefined {
  const match = /^Mode: (\S+)/m.exec(srvrAnswer);
  return match ? (match[1] as ServerMode) : undefined;
}

/** Parses `mntr` output (`key<TAB>value` lines) into a map. */
export function parseMntr(mntrAnswer: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of mntrAnswer.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) entries.set(line.slice(0, tab), line.slice(tab + 1).trim());
  }
  return entries;
}

/**
 * Reads a `wchp` answer: each watched path with the sessions (as `0x` hex) watching it. The answer lists a path
 * on a line of its own, then its sessions, one per indented line.
 */
export function parseWatchesByPath(wchpAnswer: string): Map<string, string[]> {
  const watchers = new Map<string, string[]>();
  let sessions: string[] = [];
  for (const line of wchpAnswer.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line)) sessions.push(line.trim());
    else watchers.set(line.trim(), (sessions = []));
  }
  return watchers;
}
