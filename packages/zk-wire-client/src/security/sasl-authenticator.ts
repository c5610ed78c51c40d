/**
 * Plugs the DIGEST-MD5 mechanism into the session's SASL seam (sasl-hook.ts): one authenticator per
 * connection, driving GetSASLRequest / SetSASLResponse round trips until the server has proven itself.
 */
import { ZooKeeperError } from '../util/errors.js';
import type { SaslOptions } from '../util/types.js';
import { DIGEST_MD5 } from './digest-directives.js';
import { DigestMd5Client } from './digest-md5.js';
import { SaslAuthenticationError, SaslFailure } from './sasl-error.js';
import type { SaslAuthenticator, SaslAuthenticatorFactory, SaslChannel } from './sasl-hook.js';

/** DIGEST-MD5 needs at most two round trips; a server that keeps sending tokens is not speaking it. */
const MAX_ROUND_TRIPS = 4;

/*
 * The server answers a refused response with err -115 (or -124 when SASL is enforced) and then closes the
 * connection; the channel turns that into a ZooKeeperError. Anything else (a lost connection) is passed on
 * unchanged, so the session treats it as the ordinary disconnect it is and tries again.
 */
function rejected(error: unknown): SaslAuthenticationError | undefined {
  if (!ZooKeeperError.isInstance(error)) return undefined;
  if (error.code !== 'AUTHFAILED' && error.code !== 'SESSIONCLOSEDREQUIRESASLAUTH') return undefined;
  if (error instanceof SaslAuthenticationError) return error;
  return new SaslAuthenticationError(
    DIGEST_MD5,
    SaslFailure.REJECTED,
    'the server refused the user name or password',
    {
      cause: error,
    },
  );
}

class DigestMd5Authenticator implements SaslAuthenticator {
  constructor(
    private readonly options: SaslOptions,
    private readonly channel: SaslChannel,
  ) {}

  async start(): Promise<void> {
    const { username, password, serviceName, hostname } = this.options;
    const mechanism = new DigestMd5Client({ username, password, serviceName, hostname });
    let token: Uint8Array = mechanism.initialResponse();
    try {
      for (let round = 0; round < MAX_ROUND_TRIPS; round++) {
        const reply = await this.channel.exchange(token);
        token = mechanism.evaluateChallenge(reply);
        if (mechanism.complete) return;
      }
    } catch (error) {
      throw rejected(error) ?? error;
    }
    throw new SaslAuthenticationError(DIGEST_MD5, SaslFailure.BAD_CHALLENGE, 'the exchange did not finish');
  }
}

/** The session's factory for `sasl: { mechanism: 'DIGEST-MD5', ... }`. */
export const digestMd5Authenticator: SaslAuthenticatorFactory = (options, channel) =>
  new DigestMd5Authenticator(options, channel);
