/**
 * Read pacing under load (the `readCoalescing` client option).
 *
 * With many requests in flight, a server answers them a couple at a time, and a client that reads each
 * answer as it lands wakes up, reads, settles two promises and writes two new requests tens of thousands of
 * times a second; the server, fed two requests per read, spends its own CPU the same way. Waiting a little
 * between reads lets dozens of replies pile up in the socket, so one wake-up reads them all and one write
 * sends their successors: fewer system calls on both ends, and the server answers more per second.
 *
 * How long to wait is not a constant, because servers and machines differ by an order of magnitude. It is
 * read off what the client measures on each connection: the reply rate R (replies per ms, over windows of
 * 20 ms) and the depth N (requests awaiting replies when a read comes in). The aim is a batch of about
 * `TARGET_BATCH` replies per read, whatever the server's speed: the fixed cost of a read (a wake-up, a system
 * call, a timer) is that of a dozen replies' decoding and settling, so at ~32 replies per read it is a few
 * percent, and waiting for more would only add latency. So the wait is TARGET_BATCH / R, rounded to whole
 * ms (timer granularity), at least 1 and at most `maxDelayMs`: the faster the server, the shorter the wait.
 * And it is taken only while the server answers at most half of the
 * requests in flight during it (R × wait ≤ N / 2): the server keeps the other half queued and never runs
 * dry; a client needs a few dozen requests in flight before it ever waits. Nor does it wait longer than 1 ms
 * for more bytes than one read takes (the read buffer, at the byte rate measured alongside): large replies (a
 * getChildren of a thousand names) fill reads by themselves, and the longer wait their batch would ask let
 * them pile up in the socket until the server's writes to it stall. The 1 ms wait stays: what piled up
 * during it is read in back-to-back reads (a full read is never followed by a wait), and it still batches
 * the server's side; reading such replies unpaced was slower, at more CPU per reply.
 *
 * It pays only when replies drive the requests: a caller that sends its next request when a reply comes
 * (a closed loop: a batch job, a cache loading a tree, a pipeline of reads) writes its successors in the
 * same turn as the read, so a batched read becomes a batched write. A caller whose requests come on their
 * own clock (web requests, a timer: an open loop) gains nothing from the wait, whose every ms lands on
 * replies already made late by whatever raised the depth. So the connection tells the pacer, for every
 * write, whether it went out in the turn of a read, and the pacer waits only after a window in which most
 * of the bytes written were (`REPLY_DRIVEN_SHARE`).
 *
 * The wait is not taken:
 * - below `minInFlight` requests in flight (default 64: twice the target batch): an interactive client, or
 *   one waiting on a lock, reads every reply as it lands, with exactly the latency of an unpaced client;
 * - before the rate is known, or after a window with fewer than `minInFlight` replies (a light load is no
 *   basis to pace on), or after a window whose writes were mostly not driven by replies;
 * - after a read that filled the read buffer: more is already waiting;
 * - for two windows after a wait that overran (the reads after it brought more than half of what was in
 *   flight), and twice as long after each further overrun in a row. The rate that decides whether to wait
 *   is measured while waiting, and a wait lowers it: against a server fast for the depth, a wait once begun
 *   would keep the measured rate low enough to go on waiting, well below the rate of greedy reads. What the
 *   server answered during a wait is the evidence that counts; the next full window, unpaced, measures the
 *   rate afresh. Where waiting never pays (a client so busy that its reads come in full batches anyway), the
 *   doubling makes it try seldom.
 *
 * `delayMs` set by the user fixes the wait instead (under the same half-the-queue rule), as in earlier
 * versions.
 */
import { InvalidArgumentError } from '../util/errors.js';
import type { ReadCoalescingOptions } from '../util/types.js';

/** Checked pacing settings. */
export interface ReadPacingSettings {
  readonly minInFlight: number;
  /** A fixed wait (the user's `delayMs`); undefined: adaptive, up to `maxDelayMs`. */
  readonly delayMs?: number;
  readonly maxDelayMs: number;
}

const DEFAULT_MIN_IN_FLIGHT = 64;
const DEFAULT_MAX_DELAY_MS = 4;
/** The longest wait accepted: longer ones would only add latency. */
const MAX_DELAY_MS = 50;
/** The reply rate is measured over windows of this length. */
const RATE_WINDOW_MS = 20;
/** The replies one read should take under load (see the file comment). */
const TARGET_BATCH = 32;
/** Pace only after a window in which at least this share of the bytes written went out in a read's turn. */
const REPLY_DRIVEN_SHARE = 0.75;
/** A wait is taken when the requests in flight cover this many times the replies expected during it. */
const SAFETY_FACTOR = 2;
/**
 * Windows without a wait after one that overran: the rest of the current one, and a whole one to measure.
 * Each overrun in a row doubles it, up to MAX_HOLD_OFF_WINDOWS (1.28 s), so that where waiting never pays
 * (a client busy enough that its reads come in full batches anyway) it is tried seldom.
 */
const HOLD_OFF_WINDOWS = 2;
const MAX_HOLD_OFF_WINDOWS = 64;

/** The settings of `readCoalescing: true` (the default), one object for every connection that takes them. */
const DEFAULT_SETTINGS: ReadPacingSettings = Object.freeze({
  minInFlight: DEFAULT_MIN_IN_FLIGHT,
  maxDelayMs: DEFAULT_MAX_DELAY_MS,
});

/** Checks the option (InvalidArgumentError before anything is sent); undefined when pacing is off. */
export function readPacingSettings(
  option: ReadCoalescingOptions | boolean | undefined,
): ReadPacingSettings | undefined {
  if (option === false) return undefined;
  if (option === undefined || option === true) return DEFAULT_SETTINGS;
  if (typeof option !== 'object' || option === null) {
    throw new InvalidArgumentError(
      'readCoalescing',
      'must be a boolean or { minInFlight?, delayMs?, maxDelayMs? }',
    );
  }
  const minInFlight = option.minInFlight ?? DEFAULT_MIN_IN_FLIGHT;
  if (!Number.isInteger(minInFlight) || minInFlight < 1) {
    throw new InvalidArgumentError(
      'readCoalescing.minInFlight',
      `must be a positive integer, got ${String(minInFlight)}`,
    );
  }
  const maxDelayMs = checkedDelay('maxDelayMs', option.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
  if (option.delayMs === undefined) return { minInFlight, maxDelayMs };
  return { minInFlight, delayMs: checkedDelay('delayMs', option.delayMs), maxDelayMs };
}

function checkedDelay(name: 'delayMs' | 'maxDelayMs', value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > MAX_DELAY_MS) {
    throw new InvalidArgumentError(
      `readCoalescing.${name}`,
      `must be an integer from 1 to ${MAX_DELAY_MS}, got ${String(value)}`,
    );
  }
  return value;
}

/** Decides, after each read of one connection, whether to wait before the next one. */
export class ReadPacer {
  /**
   * Replies per ms over the last window; unknown (no wait) until a window has passed, and again after a
   * window with fewer than `minInFlight` replies: a light or idle load is no basis to pace on.
   */
  private rate = Number.POSITIVE_INFINITY;
  /** The last window's writes went out mostly in the turn of a read (a closed loop). */
  private replyDriven = false;
  private windowStart: number;
  private windowReplies = 0;
  /** Bytes read per ms over the last window (0 until known). */
  private byteRate = 0;
  private windowBytesRead = 0;
  private windowBytesInReadTurn = 0;
  private windowBytesOther = 0;
  /** The last read was followed by a wait: this read shows what the server answered during it. */
  private waited = false;
  /** Requests in flight when the first read after a wait came in (0: no wait being checked). */
  private inFlightAtResume = 0;
  /** Replies of the reads since then (one wait's replies may take several reads of a full buffer). */
  private repliesSinceResume = 0;
  /** Windows still to pass without a wait, after a wait that overran. */
  private holdOffWindows = 0;
  /** The hold-off the next overrun sets (doubled by each overrun in a row). */
  private nextHoldOff = HOLD_OFF_WINDOWS;

  constructor(
    private readonly settings: ReadPacingSettings,
    now: number,
    /** The bytes one read can take (the connection's read buffer). */
    private readonly readBufferBytes = Number.POSITIVE_INFINITY,
  ) {
    this.windowStart = now;
  }

  /** Requests in flight below which the pacer never waits (nor needs to know how writes were driven). */
  get minInFlight(): number {
    return this.settings.minInFlight;
  }

  /** Accounts for one write: `inReadTurn` when it went out in the same turn of the event loop as a read. */
  noteWrite(bytes: number, inReadTurn: boolean): void {
    if (inReadTurn) this.windowBytesInReadTurn += bytes;
    else this.windowBytesOther += bytes;
  }

  /**
   * Accounts for one read and returns the ms to wait before reading again (0: read on).
   * @param replies frames the read completed
   * @param inFlight requests awaiting replies when the read came in
   * @param bytes the bytes the read brought (a read that filled the read buffer means more is waiting)
   */
  afterRead(now: number, replies: number, inFlight: number, bytes = 0): number {
    this.windowReplies += replies;
    this.windowBytesRead += bytes;
    const elapsed = now - this.windowStart;
    if (elapsed >= RATE_WINDOW_MS) {
      this.rate =
        this.windowReplies >= this.settings.minInFlight
          ? this.windowReplies / elapsed
          : Number.POSITIVE_INFINITY;
      this.byteRate = this.windowBytesRead / elapsed;
      const written = this.windowBytesInReadTurn + this.windowBytesOther;
      this.replyDriven = written > 0 && this.windowBytesInReadTurn >= REPLY_DRIVEN_SHARE * written;
      this.windowStart = now;
      this.windowReplies = 0;
      this.windowBytesRead = 0;
      this.windowBytesInReadTurn = 0;
      this.windowBytesOther = 0;
      if (this.holdOffWindows > 0) this.holdOffWindows--;
    }
    const filled = bytes >= this.readBufferBytes;
    this.checkTheLastWait(replies, inFlight, filled);
    const wait = filled ? 0 : this.waitAfter(inFlight);
    this.waited = wait > 0;
    return wait;
  }

  /**
   * After a wait, adds up the replies of the reads that follow it back to back (each but the last filled
   * the buffer) and compares them with what was in flight when the first came in.
   */
  private checkTheLastWait(replies: number, inFlight: number, filled: boolean): void {
    if (this.waited) {
      this.waited = false;
      this.inFlightAtResume = inFlight;
      this.repliesSinceResume = 0;
    }
    if (this.inFlightAtResume === 0) return;
    this.repliesSinceResume += replies;
    if (filled) return;
    if (this.repliesSinceResume * SAFETY_FACTOR > this.inFlightAtResume) {
      this.holdOffWindows = this.nextHoldOff;
      this.nextHoldOff = Math.min(MAX_HOLD_OFF_WINDOWS, 2 * this.nextHoldOff);
    } else {
      this.nextHoldOff = HOLD_OFF_WINDOWS;
    }
    this.inFlightAtResume = 0;
  }

  /** The wait after a read that did not fill the buffer, by the rules in the file comment (0: read on). */
  private waitAfter(inFlight: number): number {
    const { minInFlight, delayMs, maxDelayMs } = this.settings;
    if (inFlight < minInFlight || !this.replyDriven || this.holdOffWindows > 0) return 0;
    // At least 1 ms either way (delayMs is checked; adaptiveWait). While the rate is unknown (Infinity) the
    // safety check fails: no wait.
    const wait = delayMs ?? this.adaptiveWait(maxDelayMs);
    return this.rate * wait * SAFETY_FACTOR <= inFlight ? wait : 0;
  }

  /**
   * About TARGET_BATCH replies' worth, in whole ms, and beyond 1 ms no more than one read buffer's worth of
   * bytes (the shortest wait is 1 ms whatever the replies' size: see the file comment).
   */
  private adaptiveWait(maxDelayMs: number): number {
    const forBatch = Math.round(TARGET_BATCH / this.rate);
    const forBuffer = this.byteRate > 0 ? Math.floor(this.readBufferBytes / this.byteRate) : maxDelayMs;
    return Math.max(1, Math.min(maxDelayMs, forBatch, forBuffer));
  }
}
