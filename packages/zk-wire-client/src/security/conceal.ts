/**
 * Keeps credentials out of `util.inspect`, `console.log` and `JSON.stringify` of the client's own objects:
 * the secret properties stay readable by code but become non-enumerable, which those three skip.
 */
import type { ClientOptions } from '../util/types.js';

/** Makes `key` of `target` non-enumerable (still readable and writable); returns `target`. */
export function concealProperty<T extends object>(target: T, key: keyof T): T {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor && 'value' in descriptor) {
    Object.defineProperty(target, key, { ...descriptor, enumerable: false });
  }
  return target;
}

/**
 * A copy of the client options whose SASL password and `auth` credentials do not show when the options (or a
 * client holding them) are inspected, logged or serialized. The caller's object is not changed.
 * Meant for the session constructor (`this.options = concealCredentials(options)`), with
 * {@link concealProperty} on each saved auth entry's bytes.
 */
export function concealCredentials<T extends Pick<ClientOptions, 'sasl' | 'auth'>>(options: T): T {
  const copy = { ...options };
  if (options.sasl) copy.sasl = concealProperty({ ...options.sasl }, 'password');
  if (options.auth) copy.auth = options.auth.map((entry) => concealProperty({ ...entry }, 'credentials'));
  return copy;
}
