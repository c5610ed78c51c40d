/**
 * Security: TLS option checks and error mapping, SASL DIGEST-MD5, and ACL entries for x509 and SASL
 * identities. See ../../SECURITY.md for how to use them.
 */
import { DIGEST_MD5 } from './digest-md5.js';
import { digestMd5Authenticator } from './sasl-authenticator.js';
import { registerSaslAuthenticator } from './sasl-hook.js';

export { formatPerms, parsePerms, saslAcl, x509Acl } from './acl-ids.js';
export { concealCredentials, concealProperty } from './conceal.js';
export {
  DIGEST_MD5,
  DigestMd5Client,
  type DigestMd5Credentials,
  type DigestMd5Options,
} from './digest-md5.js';
export { digestMd5Authenticator, validateSaslOptions } from './sasl-authenticator.js';
export {
  isSaslAuthenticationError,
  SaslAuthenticationError,
  SaslFailure,
  type SaslFailureReason,
} from './sasl-error.js';
export { isTlsError, TlsError, TlsFailure, type TlsFailureReason, tlsErrorFrom } from './tls-error.js';
export { type TlsOption, tlsConnectOptions, validateTlsOption } from './tls-options.js';

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
