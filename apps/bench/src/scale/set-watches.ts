/**
 * Counts the SetWatches frames a client sends after a reconnect, from the bytes it writes (the fault proxy's
 * toServer lane, passed through unchanged). A connection's first frame is the ConnectRequest, which has no
 * request header; every later frame is `length, xid, type, ...`. SetWatches is type 101, SetWatches2 (3.6+:
 * persistent and recursive watches too) 105; the Java client sends them with xid -8, other clients with the
 * next xid of the session, so the xid is not looked at.
 */

const SET_WATCHES = 101;
const SET_WATCHES2 = 105;

export class SetWatchesCounter {
  /** SetWatches frames seen since the last reset, and their bytes */
  frames = 0;
  bytes = 0;
  /** performance.now() when the last one was seen */
  lastAt = 0;
  private pending: Buffer = Buffer.alloc(0);
  private connectSeen = false;

  /** A new connection starts: its first frame is a ConnectRequest. */
  reset(): void {
    this.pending = Buffer.alloc(0);
    this.connectSeen = false;
    this.frames = 0;
    this.bytes = 0;
  }

  /** Feeds bytes the client wrote, in order. */
  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let offset = 0;
    while (this.pending.length - offset >= 4) {
      const length = this.pending.readInt32BE(offset);
      if (this.pending.length - offset < 4 + length) break;
      if (!this.connectSeen) this.connectSeen = true;
      else if (length >= 8) {
        const type = this.pending.readInt32BE(offset + 8);
        if (type === SET_WATCHES || type === SET_WATCHES2) {
          this.frames++;
          this.bytes += 4 + length;
          this.lastAt = performance.now();
        }
      }
      offset += 4 + length;
    }
    this.pending = this.pending.subarray(offset);
  }
}
