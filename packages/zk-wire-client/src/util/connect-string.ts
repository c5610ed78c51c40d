/**
 * Connect strings: `host1:port1,host2:port2[/chroot]` (wire-protocol.md §7.3, §9.3). The port defaults to
 * 2181; IPv6 addresses go in brackets (`[::1]:2181`). Or ZooKeeper 3.10's `dns-srv://name[/chroot]`: the hosts
 * are the targets of the SRV records of `name`, looked up by the client (session/dns-srv.ts).
 */
import { InvalidArgumentError } from './errors.js';
import { Chroot } from './paths.js';
import type { HostAddress } from './types.js';

/** A parsed connect string. */
export interface ConnectString {
  readonly hosts: readonly HostAddress[];
  readonly chroot: Chroot;
}

/** A parsed `dns-srv://name/chroot` connect string. */
export interface DnsSrvConnectString {
  /** The DNS name whose SRV records list the servers, e.g. `_zookeeper._tcp.example.org`. */
  readonly srvName: string;
  readonly chroot: Chroot;
}

/** The connect string the client was built with: a host list, or a DNS SRV name (`hosts` then empty). */
export interface ClientConnectString extends ConnectString {
  /** Set for a `dns-srv://` connect string: the hosts come from its SRV records. */
  readonly srvName: string | undefined;
}

/** The prefix of ZooKeeper's DNS SRV connect strings (3.10, `ConnectStringParser`). */
export const DNS_SRV_PREFIX = 'dns-srv://';

const DEFAULT_PORT = 2181;

function fail(connectString: string, problem: string): never {
  throw new InvalidArgumentError('connectString', `${JSON.stringify(connectString)}: ${problem}`);
}

function parseHost(text: string, whole: string): HostAddress {
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) fail(whole, `unclosed "[" in ${JSON.stringify(text)}`);
    host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) fail(whole, `unexpected ${JSON.stringify(rest)} after IPv6 address`);
      portText = rest.slice(1);
    }
  } else {
    const colon = text.lastIndexOf(':');
    if (colon >= 0 && text.indexOf(':') !== colon)
      fail(whole, `IPv6 address ${JSON.stringify(text)} needs brackets`);
    host = colon >= 0 ? text.slice(0, colon) : text;
    portText = colon >= 0 ? text.slice(colon + 1) : undefined;
  }
  if (host === '') fail(whole, 'empty host');
  let port = DEFAULT_PORT;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText)) fail(whole, `bad port ${JSON.stringify(portText)}`);
    port = Number(portText);
    if (port < 1 || port > 65535) fail(whole, `port ${port} out of range`);
  }
  return { host, port };
}

/**
 * Parses a host list connect string; throws InvalidArgumentError (argument `connectString`) naming the
 * problem. A `dns-srv://` string names no hosts (the client looks them up): {@link parseDnsSrvConnectString}.
 */
export function parseConnectString(connectString: string): ConnectString {
  if (typeof connectString !== 'string' || connectString.trim() === '')
    fail(String(connectString), 'is empty');
  if (connectString.trim().startsWith(DNS_SRV_PREFIX))
    fail(
      connectString,
      'a dns-srv:// connect string names no hosts: its SRV records do, looked up by the client',
    );
  const slash = connectString.indexOf('/');
  const hostPart = slash >= 0 ? connectString.slice(0, slash) : connectString;
  const chrootPart = slash >= 0 ? connectString.slice(slash) : undefined;
  const hosts = hostPart
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => parseHost(s, connectString));
  if (hosts.length === 0) fail(connectString, 'no host');
  return { hosts, chroot: new Chroot(chrootPart) };
}

/** A DNS name: dot-separated labels of letters, digits, `-` and `_` (SRV names start `_service._proto`). */
const DNS_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

/**
 * Parses `dns-srv://name[/chroot]` (ZooKeeper 3.10's syntax: no port, one name); undefined for a string
 * without the prefix. Throws InvalidArgumentError (argument `connectString`) for a bad name or chroot.
 */
export function parseDnsSrvConnectString(connectString: string): DnsSrvConnectString | undefined {
  if (typeof connectString !== 'string') return undefined;
  const text = connectString.trim();
  if (!text.startsWith(DNS_SRV_PREFIX)) return undefined;
  const rest = text.slice(DNS_SRV_PREFIX.length);
  const slash = rest.indexOf('/');
  const name = slash >= 0 ? rest.slice(0, slash) : rest;
  if (name === '') fail(connectString, 'no DNS name after dns-srv://');
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare.length > 253 || !bare.split('.').every((label) => DNS_LABEL.test(label))) {
    fail(
      connectString,
      `${JSON.stringify(name)} is not a DNS name (one name, no port: its SRV records give the ports)`,
    );
  }
  return { srvName: name, chroot: new Chroot(slash >= 0 ? rest.slice(slash) : undefined) };
}

/** The last connect string a client was built with, and its parse (shared by every client built with it). */
let lastParsed: { readonly text: string; readonly parsed: ClientConnectString } | undefined;

/**
 * {@link parseConnectString}, or {@link parseDnsSrvConnectString} for a `dns-srv://` string, for the client's
 * own construction: the last string is remembered, so that an application opening many sessions on one
 * connect string parses it once. The parse is shared, so the client only reads it: its host objects are
 * frozen, and the list is copied before use (not frozen itself: copying a frozen array is several times
 * slower).
 */
export function parseClientConnectString(connectString: string): ClientConnectString {
  if (lastParsed !== undefined && lastParsed.text === connectString) return lastParsed.parsed;
  const dnsSrv = parseDnsSrvConnectString(connectString);
  const parsed: ClientConnectString =
    dnsSrv === undefined
      ? { ...parseConnectString(connectString), srvName: undefined }
      : { hosts: [], chroot: dnsSrv.chroot, srvName: dnsSrv.srvName };
  for (const host of parsed.hosts) Object.freeze(host);
  lastParsed = { text: connectString, parsed };
  return parsed;
}
