/** Appends JSON lines to a process's event log, synchronously, so a crash loses at most the line being written. */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { SoakEvent } from './events.js';

/** An event without the fields the log adds itself. */
export type EventBody = SoakEvent extends infer E
  ? E extends SoakEvent
    ? Omit<E, 't' | 'proc'>
    : never
  : never;

export class EventLog {
  readonly #fd: number;
  readonly #proc: string;
  /** Events written, by kind (and by op for `op` events): the summary's operation counts. */
  readonly counts = new Map<string, number>();

  constructor(path: string, proc: string) {
    this.#fd = openSync(path, 'a');
    this.#proc = proc;
  }

  write(body: EventBody): void {
    const key = body.kind === 'op' ? `op:${body.op}` : body.kind;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    writeSync(this.#fd, `${JSON.stringify({ t: Date.now(), proc: this.#proc, ...body })}\n`);
  }

  close(): void {
    closeSync(this.#fd);
  }
}
