/**
 * The latency cells of a Node client: an open loop of getData through its driver (open-loop.ts), with our
 * client's read-pacing waits counted inside the measured windows.
 */
import diagnostics from 'node:diagnostics_channel';
import type { CellResult, CellSpec } from '../types.js';
import type { ClientDriver } from './driver.js';
import { runOpenLoopCell } from './open-loop.js';

/** The client's public diagnostics channel for read-pacing waits (docs/contracts.md). */
const READ_PACING_CHANNEL = 'zkwire:client:read-pacing';

/**
 * Counts our client's read-pacing waits inside the window: an open loop below saturation keeps few requests
 * in flight, where the pacing should never wait; if it does, its waits show up in the latency.
 */
class PacingWaits {
  recording = false;
  waits = 0;
  maxAwaiting = 0;
  private readonly onMessage = (message: unknown) => {
    if (!this.recording) return;
    this.waits++;
    const awaiting = (message as { awaitingReplies?: number }).awaitingReplies ?? 0;
    this.maxAwaiting = Math.max(this.maxAwaiting, awaiting);
  };

  constructor() {
    diagnostics.subscribe(READ_PACING_CHANNEL, this.onMessage);
  }

  stop(): string {
    diagnostics.unsubscribe(READ_PACING_CHANNEL, this.onMessage);
    return this.waits === 0
      ? '; read pacing never waited'
      : `; read pacing waited ${this.waits} times (up to ${this.maxAwaiting} replies awaited)`;
  }
}

/** Sends `spec.rate` getData per second through the driver (in turns, or for warmup + duration). */
export async function runLatency(driver: ClientDriver, spec: CellSpec): Promise<CellResult> {
  const pacing = spec.contender === 'ours' ? new PacingWaits() : undefined;
  const path = spec.paths.data;
  const result = await runOpenLoopCell(
    {
      send: (done) =>
        driver.getData(
          path,
          () => done(true),
          () => done(false),
        ),
    },
    spec,
    pacing ? [pacing] : [],
  );
  const waits = pacing?.stop() ?? '';
  return result.ok ? { ...result, note: `${result.note ?? ''}${waits}` } : result;
}
