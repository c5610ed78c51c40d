/**
 * Curator's UriSpec: a URI template such as `{scheme}://{address}:{port}`, stored in the instance JSON as its
 * parts (`{"parts":[{"value":"scheme","variable":true},...]}`) and built from an instance's fields.
 */
import { InvalidDiscoveryArgumentError } from './errors.js';

/** One token of a spec: literal text, or the name of a variable. */
export interface UriSpecPart {
  readonly value: string;
  readonly variable: boolean;
}

/** The instance fields a spec can refer to (a {@link ServiceInstance} fits). */
export interface UriSpecInstance {
  readonly name: string;
  readonly id: string;
  readonly address: string | null;
  readonly port: number | null;
  readonly sslPort: number | null;
  readonly registrationTimeUTC: number;
  readonly serviceType: string | null;
}

/** The variables Curator fills in (UriSpec.FIELD_*). */
export const UriSpecField = {
  SCHEME: 'scheme',
  NAME: 'name',
  ID: 'id',
  ADDRESS: 'address',
  PORT: 'port',
  SSL_PORT: 'ssl-port',
  REGISTRATION_TIME_UTC: 'registration-time-utc',
  SERVICE_TYPE: 'service-type',
  /** Always `{`: how a literal brace is written. */
  OPEN_BRACE: '[',
  /** Always `}`. */
  CLOSE_BRACE: ']',
} as const;

/**
 * Splits `spec` as Curator does (a StringTokenizer on `{` and `}`): text outside braces is a literal part kept
 * verbatim, text inside is a variable part, trimmed; empty pieces are dropped, so `{}` adds nothing.
 */
function parse(spec: string): UriSpecPart[] {
  const parts: UriSpecPart[] = [];
  let insideVariable = false;
  for (const token of spec.split(/([{}])/)) {
    if (token === '') continue;
    if (token === '{') {
      if (insideVariable)
        throw new InvalidDiscoveryArgumentError('uriSpec', `has a "{" inside a variable: ${spec}`);
      insideVariable = true;
    } else if (token === '}') {
      if (!insideVariable)
        throw new InvalidDiscoveryArgumentError('uriSpec', `has a "}" without a "{": ${spec}`);
      insideVariable = false;
    } else {
      parts.push({ value: insideVariable ? token.trim() : token, variable: insideVariable });
    }
  }
  if (insideVariable) throw new InvalidDiscoveryArgumentError('uriSpec', `leaves a variable open: ${spec}`);
  return parts;
}

/** A URI template: parse it once, build it for any instance. */
export class UriSpec {
  /** The tokens, in order; what the instance JSON holds. */
  readonly parts: readonly UriSpecPart[];

  /** From a spec string (`'{scheme}://{address}:{port}'`) or from parts (as read from JSON). */
  constructor(spec: string | readonly UriSpecPart[] = []) {
    if (typeof spec === 'string') {
      this.parts = Object.freeze(parse(spec));
      return;
    }
    if (!Array.isArray(spec))
      throw new InvalidDiscoveryArgumentError('uriSpec', 'must be a string or an array of parts');
    this.parts = Object.freeze(
      spec.map((part, index) => {
        if (typeof part?.value !== 'string' || typeof part.variable !== 'boolean') {
          throw new InvalidDiscoveryArgumentError(
            `uriSpec.parts[${index}]`,
            'must be { value: string, variable: boolean }',
          );
        }
        return Object.freeze({ value: part.value, variable: part.variable });
      }),
    );
  }

  /**
   * The URI for `instance`: `scheme` is `https` when the instance has an `sslPort`, else `http`; `name`, `id`,
   * `address`, `port`, `ssl-port`, `registration-time-utc` are its fields (`""` when null), `service-type` its
   * type in lower case, `[` and `]` literal braces. `variables` override all of these; a variable nobody
   * defines builds as nothing, as in Curator.
   */
  build(instance?: UriSpecInstance | null, variables: Readonly<Record<string, unknown>> = {}): string {
    const values = new Map<string, unknown>([
      [UriSpecField.OPEN_BRACE, '{'],
      [UriSpecField.CLOSE_BRACE, '}'],
      [UriSpecField.SCHEME, 'http'],
    ]);
    if (instance) {
      values.set(UriSpecField.NAME, instance.name ?? '');
      values.set(UriSpecField.ID, instance.id ?? '');
      values.set(UriSpecField.ADDRESS, instance.address ?? '');
      values.set(UriSpecField.PORT, instance.port ?? '');
      values.set(UriSpecField.SSL_PORT, instance.sslPort ?? '');
      values.set(UriSpecField.REGISTRATION_TIME_UTC, instance.registrationTimeUTC ?? '');
      values.set(UriSpecField.SERVICE_TYPE, instance.serviceType ? instance.serviceType.toLowerCase() : '');
      if (instance.sslPort !== null && instance.sslPort !== undefined)
        values.set(UriSpecField.SCHEME, 'https');
    }
    for (const [key, value] of Object.entries(variables)) values.set(key, value);
    let uri = '';
    for (const part of this.parts) {
      if (!part.variable) uri += part.value;
      else {
        const value = values.get(part.value);
        if (value !== null && value !== undefined) uri += String(value);
      }
    }
    return uri;
  }

  /** The spec text again (`{` and `}` around variables). */
  toString(): string {
    return this.parts.map((part) => (part.variable ? `{${part.value}}` : part.value)).join('');
  }
}
