/**
 * An open loop taking turns with the other contenders (TurnSchedule in types.ts; runTurns in turns.ts drives
 * it): in each of its turns it sends at the cell's rate from the turn's planned start (turn-pacer.ts), records
 * the requests due after the turn's ramp, stops sending at the turn's end and lets the rest come back in the
 * gap. Every contender so meets the server in the same state over the cell: one after the other for seconds
 * each, the server's queue and the machine's speed at that moment decided the tail (at 90% of saturation,
 * ours' p99 against the raw limit's read 0.61x in one run and 1.56x in the next, same code).
 */

import { OpenLoopRecorders } from './latency-recorder.js';
import { hrtimeAt, OpenLoopRequests, type OpenLoopTarget } from './open-loop-requests.js';
import type { TurnGate } from './turn-gate.js';
import { TurnPacer } from './turn-pacer.js';
import type { PlannedTurn, TurnLoop } from './turns.js';
import type { Recording } from './window.js';

export class OpenLoopInTurns implements TurnLoop {
  /** the counted turns' recorders, added up (the warm-up and lost turns left out) */
  readonly measured = new OpenLoopRecorders();
  /**
   * Each turn's p99 in µs, the warm-up turn first, 0 for a turn not counted: ours' and the raw limit's are
   * paired turn by turn in the report, as throughput is (stats.ts), so that one stall moves one pair.
   */
  readonly turnP99s: number[] = [];
  /** this turn's: they record by request (turn-pacer.ts says which), so they are always on */
  private turn = new OpenLoopRecorders(true);
  private readonly requests: OpenLoopRequests;
  private timer: NodeJS.Timeout | undefined;
  /** sends what fell due before the turn's end and stops the pacer (set while a turn runs) */
  private finish: (() => void) | undefined;

  /** `extras` count only inside the measured turns' windows (our client's read-pacing waits) */
  constructor(
    target: OpenLoopTarget,
    private readonly rate: number,
    private readonly extras: Recording[] = [],
  ) {
    this.requests = new OpenLoopRequests(target);
  }

  start(gate?: TurnGate, planned?: PlannedTurn): void {
    if (!gate || !planned) throw new Error("an open loop takes turns only with its turn's gate and start");
    const pacer = new TurnPacer(this.rate, {
      startAt: planned.startAt,
      recordFrom: gate.openAt,
      endAt: gate.closeAt,
    });
    const { requests } = this;
    const into = this.turn;
    const startNs = hrtimeAt(planned.startAt);
    // the gate keeps the turn's window by the replies (ops and time for the rate kept, CPU time), as in a
    // closed loop; the pacer, not the gate, decides when to stop sending
    requests.onReply = () => gate.note(requests.completed, requests.errors);
    let sent = 0;
    const sendDue = (now: number) => {
      requests.sendBatch(pacer.due(now) - sent, () => {
        sent++;
        const dueNs = startNs + BigInt(Math.round(pacer.dueAfterNs(sent)));
        requests.send(dueNs, pacer.recorded(sent) ? into : undefined);
      });
    };
    const tick = () => {
      const now = performance.now();
      const inWindow = now >= pacer.window.recordFrom && now < pacer.window.endAt;
      this.recordExtras(!planned.warmUp && inWindow);
      sendDue(now);
      if (now < pacer.window.endAt) this.timer = setTimeout(tick, 1);
    };
    this.finish = () => {
      clearTimeout(this.timer);
      // a tick held up past the end has not sent everything due inside the turn: those go now, and count from
      // when they were due (leaving them out would hide the stall that delayed them)
      sendDue(pacer.window.endAt);
      this.recordExtras(false);
    };
    tick();
  }

  stop(): void {
    this.finish?.();
    this.finish = undefined;
  }

  endTurn(counted: boolean): void {
    if (counted) this.measured.add(this.turn);
    this.turnP99s.push(counted ? this.turn.latency.summary().p99 : 0);
    // fresh recorders for the next turn (made here, in the gap, not when it starts): a reply that outlived
    // the wait for this turn's requests lands in these, which are no longer counted
    this.turn = new OpenLoopRecorders(true);
  }

  inFlight(): number {
    return this.requests.outstanding;
  }

  completed(): number {
    return this.requests.completed;
  }

  errors(): number {
    return this.requests.errors;
  }

  private recordExtras(on: boolean): void {
    for (const extra of this.extras) extra.recording = on;
  }
}
