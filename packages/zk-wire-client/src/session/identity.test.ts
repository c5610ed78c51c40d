import { describe, expect, it } from 'vitest';
import { SessionIdentity } from './identity.js';

/** The session id and password a ConnectRequest frame presents (after the length, version, zxid, timeout). */
function presented(frame: Buffer): { id: bigint; password: string } {
  const id = frame.readBigInt64BE(20);
  const length = frame.readInt32BE(28);
  return { id, password: frame.subarray(32, 32 + length).toString('hex') };
}

const password = (byte: number) => Buffer.alloc(16, byte);
const granted = (sessionId: bigint, byte: number, readOnly = false) => ({
  protocolVersion: 0,
  timeOut: 6000,
  sessionId,
  passwd: password(byte),
  readOnly,
});

describe('SessionIdentity', () => {
  it('asks for a new session until a read-write server grants one, then presents that one', () => {
    const identity = new SessionIdentity(undefined);
    expect(presented(identity.connectRequest(0n, 6000, true))).toEqual({ id: 0n, password: '00'.repeat(16) });
    // A read-only server's session is valid nowhere else: the next request still asks for a new one, and the
    // watches of the session being left carry over to it.
    expect(identity.accept(granted(7n, 1, true))).toBe(true);
    expect(identity.id).toBe(7n);
    expect(presented(identity.connectRequest(0n, 6000, true)).id).toBe(0n);
    expect(identity.accept(granted(8n, 2))).toBe(true);
    expect(presented(identity.connectRequest(5n, 6000, true))).toEqual({ id: 8n, password: '02'.repeat(16) });
    expect(identity.negotiatedTimeoutMs).toBe(6000);
    // Reattached: same session, watches carry over; another id is a new session, whose watches do not.
    expect(identity.accept(granted(8n, 2))).toBe(true);
    expect(identity.accept(granted(9n, 3))).toBe(false);
  });

  it('presents a session given at construction, and a new one after being forgotten', () => {
    const identity = new SessionIdentity({ id: 42n, password: password(4) });
    expect(presented(identity.connectRequest(0n, 6000, false))).toEqual({
      id: 42n,
      password: '04'.repeat(16),
    });
    identity.forget();
    expect([identity.id, identity.negotiatedTimeoutMs]).toEqual([0n, 0]);
    expect(presented(identity.connectRequest(0n, 6000, false))).toEqual({
      id: 0n,
      password: '00'.repeat(16),
    });
    // Whatever id the server now grants is a new session: the old one's watches do not carry over.
    expect(identity.accept(granted(43n, 5))).toBe(false);
  });
});
