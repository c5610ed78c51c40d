/**
 * Instance bytes exactly as Curator 5.4's JsonInstanceSerializer writes them: compact UTF-8 JSON, fields in
 * declaration order `name, id, address, port, sslPort, payload, registrationTimeUTC, serviceType, uriSpec`,
 * nulls written, and `enabled` last only when asked (ServiceDiscoveryBuilder's default serializer runs in
 * "compatible" mode, which leaves it out). Reading is as lenient as Jackson with FAIL_ON_UNKNOWN_PROPERTIES
 * off: unknown fields are ignored and missing ones take Curator's defaults; a field of the wrong type, or bytes
 * that are not a JSON object, are a {@link BadInstanceDataError} naming the node.
 */
import { BadInstanceDataError } from './errors.js';
import { decodePayload, encodePayload, type JsonValue } from './payload.js';
import { isServiceType, type ServiceInstance, ServiceType } from './service-instance.js';
import { UriSpec, type UriSpecPart } from './uri-spec.js';

/** How instances are written. */
export interface SerializerOptions {
  /**
   * Write the `enabled` field (Curator's `new JsonInstanceSerializer(type, false)`). Default false, the bytes of
   * Curator's default serializer; readers honour `"enabled":false` either way.
   */
  writeEnabled?: boolean;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

/** The instance's JSON text, field by field in Curator's order. */
export function instanceToJson(instance: ServiceInstance, options: SerializerOptions = {}): string {
  const fields = [
    `"name":${JSON.stringify(instance.name)}`,
    `"id":${JSON.stringify(instance.id)}`,
    `"address":${JSON.stringify(instance.address)}`,
    `"port":${JSON.stringify(instance.port)}`,
    `"sslPort":${JSON.stringify(instance.sslPort)}`,
    `"payload":${encodePayload(instance.payload, instance.payloadClass)}`,
    `"registrationTimeUTC":${JSON.stringify(instance.registrationTimeUTC)}`,
    `"serviceType":${JSON.stringify(instance.serviceType)}`,
    `"uriSpec":${instance.uriSpec ? uriSpecToJson(instance.uriSpec.parts) : 'null'}`,
  ];
  if (options.writeEnabled) fields.push(`"enabled":${instance.enabled}`);
  return `{${fields.join(',')}}`;
}

function uriSpecToJson(parts: readonly UriSpecPart[]): string {
  const items = parts.map((part) => `{"value":${JSON.stringify(part.value)},"variable":${part.variable}}`);
  return `{"parts":[${items.join(',')}]}`;
}

/** The bytes of the instance's node. */
export function serializeInstance(instance: ServiceInstance, options?: SerializerOptions): Uint8Array {
  return utf8Encoder.encode(instanceToJson(instance, options));
}

type Fields = Record<string, JsonValue>;

function field<T extends JsonValue>(
  fields: Fields,
  key: string,
  fallback: NoInfer<T>,
  accept: (value: JsonValue) => value is T,
  path: string,
  expected: string,
): T {
  const value = fields[key];
  if (value === undefined) return fallback;
  if (!accept(value))
    throw new BadInstanceDataError(path, `"${key}" is not ${expected}: ${JSON.stringify(value)}`);
  return value;
}

const isString = (v: JsonValue): v is string => typeof v === 'string';
const isStringOrNull = (v: JsonValue): v is string | null => v === null || typeof v === 'string';
const isPortOrNull = (v: JsonValue): v is number | null =>
  v === null || (typeof v === 'number' && Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31);
const isLong = (v: JsonValue): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isBoolean = (v: JsonValue): v is boolean => typeof v === 'boolean';

function readUriSpec(raw: JsonValue | undefined, path: string): UriSpec | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new BadInstanceDataError(path, '"uriSpec" is not an object');
  const parts = raw.parts ?? [];
  if (!Array.isArray(parts)) throw new BadInstanceDataError(path, '"uriSpec.parts" is not an array');
  return new UriSpec(
    parts.map((part, index) => {
      if (typeof part !== 'object' || part === null || Array.isArray(part)) {
        throw new BadInstanceDataError(path, `"uriSpec.parts[${index}]" is not an object`);
      }
      // Jackson's defaults for a Part: value "", variable false.
      const value = part.value ?? '';
      const variable = part.variable ?? false;
      if (typeof value !== 'string' || typeof variable !== 'boolean') {
        throw new BadInstanceDataError(
          path,
          `"uriSpec.parts[${index}]" is not { value: string, variable: boolean }`,
        );
      }
      return { value, variable };
    }),
  );
}

/** Reads the bytes of the node at `path` (named in errors); never trusts them. */
export function deserializeInstance(bytes: Uint8Array, path: string): ServiceInstance {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decoder.decode(bytes));
  } catch (cause) {
    throw new BadInstanceDataError(path, bytes.length === 0 ? 'the node is empty' : 'not UTF-8 JSON', {
      cause,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BadInstanceDataError(path, 'the JSON is not an object');
  }
  const fields = parsed as Fields;
  const serviceType = fields.serviceType ?? ServiceType.DYNAMIC;
  if (!isServiceType(serviceType)) {
    throw new BadInstanceDataError(path, `unknown "serviceType": ${JSON.stringify(serviceType)}`);
  }
  const { payload, payloadClass } = decodePayload(fields.payload);
  return Object.freeze({
    name: field(fields, 'name', '', isString, path, 'a string'),
    id: field(fields, 'id', '', isString, path, 'a string'),
    address: field(fields, 'address', null, isStringOrNull, path, 'a string or null'),
    port: field(fields, 'port', null, isPortOrNull, path, 'an int or null'),
    sslPort: field(fields, 'sslPort', null, isPortOrNull, path, 'an int or null'),
    payload,
    payloadClass,
    registrationTimeUTC: field(fields, 'registrationTimeUTC', 0, isLong, path, 'a long'),
    serviceType,
    uriSpec: readUriSpec(fields.uriSpec, path),
    enabled: field(fields, 'enabled', true, isBoolean, path, 'a boolean'),
  });
}
