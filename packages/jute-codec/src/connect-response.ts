import { JuteCodecError } from './errors';
import { Cursor, checkRange } from './layouts';
import { type ConnectResponse, ConnectResponseLayout } from './records/session';

/**
 * Decodes the payload of the server's first frame: a ConnectResponse, then an optional readOnly byte
 * (absent from servers answering a client that did not send one; wire-protocol.md §2.3).
 */
export function decodeConnectResponse(payload: Buffer): ConnectResponse & { readOnly: boolean } {
  checkRange(payload, 0, payload?.length);
  const usual = connectResponseAtFixedOffsets(payload);
  if (usual !== undefined) return usual;
  const cursor = new Cursor(payload, 0, payload.length);
  const response = ConnectResponseLayout.read(cursor) as ConnectResponse & { readOnly: boolean };
  const left = payload.length - cursor.offset;
  if (left > 1) {
    throw new JuteCodecError('TRAILING_BYTES', `ConnectResponse: ${left} bytes left after the record`, {
      offset: cursor.offset,
    });
  }
  response.readOnly = left === 1 && payload[cursor.offset] !== 0;
  return response;
}

/** protocolVersion, timeOut, sessionId, then the password's length. */
const PASSWORD_AT = 20;

/**
 * A well-formed ConnectResponse (a password of bytes, then nothing or the readOnly byte) read at fixed
 * offsets: the same object the layout reads, without its generic walk over the fields, a cost every session
 * pays cold (it runs once per connection, never warm). Anything else returns undefined and goes through the
 * layout, whose errors say what is wrong.
 */
function connectResponseAtFixedOffsets(
  payload: Buffer,
): (ConnectResponse & { readOnly: boolean }) | undefined {
  if (payload.length < PASSWORD_AT) return undefined;
  const passwordLength = payload.readInt32BE(PASSWORD_AT - 4);
  const end = PASSWORD_AT + passwordLength;
  if (passwordLength < 0 || (payload.length !== end && payload.length !== end + 1)) return undefined;
  return {
    protocolVersion: payload.readInt32BE(0),
    timeOut: payload.readInt32BE(4),
    sessionId: payload.readBigInt64BE(8),
    // A view, as the layout reads it.
    passwd: payload.subarray(PASSWORD_AT, end),
    readOnly: payload.length === end + 1 && payload[end] !== 0,
  };
}
