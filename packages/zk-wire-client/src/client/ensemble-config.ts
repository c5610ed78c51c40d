/**
 * The ensemble's dynamic configuration, as `getConfig` and `reconfig` return it (the data of
 * `/zookeeper/config`, ZooKeeper 3.5+):
 *
 *   server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181
 *   server.2=[2001:db8::2]:2888:3888:observer;2181
 *   version=100000000
 *
 * A server line is `host:quorumPort:electionPort[:role][;[clientHost:]clientPort]`; the client part is
 * missing when the server takes no clients. `version` is the config's zxid in hex: what reconfig's
 * `fromConfig` takes. Unknown keys (a quorum system's `group.N`, `weight.N`) are ignored.
 */
import { Buffer } from 'node:buffer';
import { ProtocolError } from '../util/errors.js';
import type { HostAddress } from '../util/types.js';

/** One server of the configuration. */
export interface EnsembleMember {
  /** The server's id (`server.N`). */
  readonly id: number;
  /** The host of its quorum and election ports. */
  readonly host: string;
  readonly quorumPort: number;
  readonly electionPort: number;
  readonly role: 'participant' | 'observer';
  /** Where clients connect, or undefined when the server takes no clients. */
  readonly client: HostAddress | undefined;
}

/** A parsed configuration. */
export interface EnsembleConfig {
  /** The config's version (its zxid): reconfig's `fromConfig`. Undefined when the data has none. */
  readonly version: bigint | undefined;
  readonly members: readonly EnsembleMember[];
}

const SERVER_KEY = /^server\.(\d+)$/;
const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

function bad(line: string, problem: string): never {
  throw new ProtocolError(`ensemble config line ${JSON.stringify(line)}: ${problem}`);
}

function port(text: string | undefined, line: string): number {
  if (text === undefined || !/^\d{1,5}$/.test(text)) bad(line, `bad port ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < 1 || value > 65535) bad(line, `port ${value} out of range`);
  return value;
}

/** Splits `host:a:b...` into the host (brackets removed for IPv6) and the colon-separated rest. */
function hostAndRest(text: string, line: string): [string, string[]] {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) bad(line, 'unclosed "["');
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) bad(line, 'expected ":" after "]"');
    return [text.slice(1, close), rest === '' ? [] : rest.slice(1).split(':')];
  }
  const [host = '', ...rest] = text.split(':');
  if (host === '') bad(line, 'empty host');
  return [host, rest];
}

function parseMember(id: number, value: string, line: string): EnsembleMember {
  const semicolon = value.indexOf(';');
  const serverPart = semicolon >= 0 ? value.slice(0, semicolon) : value;
  const clientPart = semicolon >= 0 ? value.slice(semicolon + 1).trim() : '';
  const [host, fields] = hostAndRest(serverPart.trim(), line);
  if (fields.length < 2) bad(line, 'expected host:quorumPort:electionPort');
  const roleText = fields[2] ?? 'participant';
  if (roleText !== 'participant' && roleText !== 'observer') bad(line, `unknown role ${roleText}`);
  let client: HostAddress | undefined;
  if (clientPart !== '') {
    // `port` alone, or `host:port` (the host defaults to the wildcard address).
    const [clientHost, clientFields] = /^\d+$/.test(clientPart)
      ? ['0.0.0.0', [clientPart]]
      : hostAndRest(clientPart, line);
    if (clientFields.length !== 1) bad(line, 'expected [clientHost:]clientPort after ";"');
    client = { host: clientHost, port: port(clientFields[0], line) };
  }
  return {
    id,
    host,
    quorumPort: port(fields[0], line),
    electionPort: port(fields[1], line),
    role: roleText,
    client,
  };
}

/**
 * Parses configuration data (bytes or text). Throws ProtocolError naming the line when a server line or
 * the version is malformed: the data comes from the network.
 */
export function parseEnsembleConfig(data: Uint8Array | string): EnsembleConfig {
  const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
  let version: bigint | undefined;
  const members: EnsembleMember[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const equals = line.indexOf('=');
    if (equals < 0) bad(line, 'expected key=value');
    const key = line.slice(0, equals).trim();
    const value = line.slice(equals + 1).trim();
    if (key === 'version') {
      if (!/^[0-9a-fA-F]{1,16}$/.test(value)) bad(line, 'version must be hex');
      version = BigInt(`0x${value}`);
      continue;
    }
    const match = SERVER_KEY.exec(key);
    if (match === null) continue;
    members.push(parseMember(Number(match[1]), value, line));
  }
  return { version, members };
}

/**
 * The addresses clients connect to, one per member that takes clients (participants and observers, as
 * Curator's EnsembleTracker): a wildcard client host (`0.0.0.0`, `::`, or none given) means "every
 * interface", so the member's own host stands for it.
 */
export function clientAddresses(config: EnsembleConfig): HostAddress[] {
  const out: HostAddress[] = [];
  for (const member of config.members) {
    if (member.client === undefined) continue;
    const host = WILDCARD_HOSTS.has(member.client.host) ? member.host : member.client.host;
    out.push({ host, port: member.client.port });
  }
  return out;
}

/** `host:port` of an address, with brackets for IPv6, as connect strings write it. */
export function formatAddress(address: HostAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

/** The connect string of a configuration's client addresses (no chroot), e.g. for updateServerList. */
export function configToConnectString(config: EnsembleConfig): string {
  return clientAddresses(config).map(formatAddress).join(',');
}
