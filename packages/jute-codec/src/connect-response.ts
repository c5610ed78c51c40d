import { JuteCodecError } from './errors';
import { Cursor, checkRange } from './layouts';
import { type ConnectResponse, ConnectResponseLayout } from './records/session';

/**
 * Decodes the payload of the server's first frame: a ConnectResponse, then an optional readOnly byte
 * (absent from servers answering a client that did not send one; wire-protocol.md §2.3).
 */
export function decodeConnectResponse(payload: Buffer): ConnectResponse & { readOnly: boolean } {
  checkRange(payload, 0, payload?.length);
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
