/** The progress display on stderr: a live status line on a terminal, one line per finished cell always. */
import { contenderShort, int, micros } from './report/format.js';
import type { CellResult, ContenderId } from './types.js';

/** Writes progress lines to stderr. */
export class Progress {
  private readonly tty = process.stderr.isTTY === true;
  private done = 0;

  constructor(private readonly total: number) {}

  /** Any message, clearing the status line first. */
  log(message: string): void {
    process.stderr.write(`${this.tty ? '\r\x1b[K' : ''}${message}\n`);
  }

  /** A cell is starting. */
  start(round: number, rounds: number, caseKey: string, contender: ContenderId): void {
    if (!this.tty) return;
    const pct = Math.floor((100 * this.done) / Math.max(this.total, 1));
    process.stderr.write(
      `\r\x1b[K[${pct}%] round ${round}/${rounds} · ${caseKey} · ${contenderShort[contender]} (cell ${this.done + 1}/${this.total}) ...`,
    );
  }

  /** A cell finished. */
  finish(round: number, caseKey: string, contender: ContenderId, result: CellResult): void {
    this.done++;
    const head = `  r${round} ${caseKey.padEnd(16)} ${contenderShort[contender].padEnd(6)}`;
    if (!result.ok) {
      this.log(`${head} ${result.unsupported ? 'n/a' : 'FAILED'}: ${result.error}`);
      return;
    }
    if (result.memory) {
      const m = result.memory;
      const per = (values: number[]) => values.map((v) => int(v / m.units)).join(' / ');
      const after = m.afterEvents
        ? `; after ${int(m.afterEvents.events)} events heap ${per(m.afterEvents.heapBytes)}`
        : '';
      this.log(`${head} heap ${per(m.heapBytes)} B, RSS ${per(m.rssBytes)} B per unit (tries)${after}`);
      return;
    }
    const perSec = (result.ops * 1000) / result.elapsedMs;
    const cpu = result.ops > 0 ? micros(result.cpuUs / result.ops) : '-';
    const lat = result.latency
      ? `  p50 ${micros(result.latency.p50)} µs  p99 ${micros(result.latency.p99)} µs`
      : '';
    const errors = result.errors > 0 ? `  (${result.errors} errors)` : '';
    this.log(`${head} ${int(perSec).padStart(9)} ops/s  ${cpu.padStart(6)} µs/op CPU${lat}${errors}`);
  }
}
