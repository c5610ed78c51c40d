/**
 * The SASL mechanisms the client brings (DIGEST-MD5), registered with the SASL seam (sasl-hook.ts) the
 * first time a session authenticates. See ../../SECURITY.md for TLS, SASL and the ACL helpers.
 */
import { DIGEST_MD5 } from './digest-directives.js';
import { digestMd5Authenticator } from './sasl-authenticator.js';
import { registerSaslAuthenticator } from './sasl-hook.js';

let registered = false;

/**
 * Registers the built-in SASL mechanisms (DIGEST-MD5) with the session's SASL seam. Idempotent; the session
 * calls it before it looks a mechanism up, so no import side effect is relied on (the package is side-effect free).
 */
export function registerBuiltInSaslMechanisms(): void {
  if (registered) return;
  registered = true;
  registerSaslAuthenticator(DIGEST_MD5, digestMd5Authenticator);
}
