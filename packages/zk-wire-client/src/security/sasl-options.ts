/**
 * The `sasl` option, checked when the client is made, apart from the mechanisms themselves (digest-md5.ts,
 * sasl-authenticator.ts): the session's settings check it without standing on the DIGEST-MD5 machinery.
 */
import { InvalidArgumentError } from '../util/errors.js';
import type { SaslOptions } from '../util/types.js';
import { DIGEST_MD5 } from './digest-directives.js';
import { saslAuthenticatorFactory } from './sasl-hook.js';

/**
 * Refuses SASL options that cannot work, before anything is sent. The error names the field, never its value.
 */
export function validateSaslOptions(sasl: unknown): asserts sasl is SaslOptions | undefined {
  if (sasl === undefined) return;
  if (typeof sasl !== 'object' || sasl === null) throw new InvalidArgumentError('sasl', 'must be an object');
  const options = sasl as Partial<SaslOptions>;
  const mechanism = typeof options.mechanism === 'string' ? options.mechanism.toUpperCase() : '';
  // Mechanisms plugged in with registerSaslAuthenticator are accepted as registered.
  if (mechanism !== DIGEST_MD5 && saslAuthenticatorFactory(mechanism) === undefined) {
    throw new InvalidArgumentError(
      'sasl.mechanism',
      `no authenticator for "${mechanism}" (built in: ${DIGEST_MD5}; others need registerSaslAuthenticator)`,
    );
  }
  for (const field of ['username', 'password'] as const) {
    if (typeof options[field] !== 'string' || options[field] === '') {
      throw new InvalidArgumentError(`sasl.${field}`, 'must be a non-empty string');
    }
  }
  for (const field of ['serviceName', 'hostname'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value === '' || value.includes('/'))) {
      throw new InvalidArgumentError(`sasl.${field}`, 'must be a non-empty string without "/"');
    }
  }
}
