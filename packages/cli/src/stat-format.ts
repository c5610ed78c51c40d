/**
 * A znode's Stat as zkCli's StatPrinter prints it (zxids and the ephemeral owner in hex, times as Java prints a
 * Date, in the local time zone), and
 * as a JSON-safe object (bigints as decimal strings would lose nothing but readability: zxids and session ids
 * go out as `0x` hex strings, times as ISO dates).
 */
import type { Stat } from '@zkwire/zk-wire-client';
import { javaDateString } from './java-date.js';

/** Hex with zkCli's `0x` prefix (`Long.toHexString` of a non-negative long). */
export function hex(value: bigint): string {
  return `0x${BigInt.asUintN(64, value).toString(16)}`;
}

/** A Stat as JSON-safe fields. */
export function statToJson(stat: Stat): Record<string, string | number> {
  return {
    czxid: hex(stat.czxid),
    ctime: new Date(Number(stat.ctime)).toISOString(),
    mzxid: hex(stat.mzxid),
    mtime: new Date(Number(stat.mtime)).toISOString(),
    pzxid: hex(stat.pzxid),
    cversion: stat.cversion,
    dataVersion: stat.version,
    aclVersion: stat.aversion,
    ephemeralOwner: hex(stat.ephemeralOwner),
    dataLength: stat.dataLength,
    numChildren: stat.numChildren,
  };
}

/** The eleven lines zkCli prints for a Stat. */
export function statLines(stat: Stat): string[] {
  return [
    `cZxid = ${hex(stat.czxid)}`,
    `ctime = ${javaDateString(Number(stat.ctime))}`,
    `mZxid = ${hex(stat.mzxid)}`,
    `mtime = ${javaDateString(Number(stat.mtime))}`,
    `pZxid = ${hex(stat.pzxid)}`,
    `cversion = ${stat.cversion}`,
    `dataVersion = ${stat.version}`,
    `aclVersion = ${stat.aversion}`,
    `ephemeralOwner = ${hex(stat.ephemeralOwner)}`,
    `dataLength = ${stat.dataLength}`,
    `numChildren = ${stat.numChildren}`,
  ];
}
