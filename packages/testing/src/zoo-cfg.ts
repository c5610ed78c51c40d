import { writeFileSync } from 'node:fs';

/** zoo.cfg entries; later sources override earlier ones. */
export type ZooCfg = Record<string, string | number | boolean>;

/**
 * The settings every test server gets (server-setup.md): loopback only, no AdminServer (its Jetty cannot load
 * with Debian's classpath and it would bind 0.0.0.0:8080), every four-letter word allowed, no per-IP
 * connection cap (all test clients come from 127.0.0.1), and no fsync: tests and benchmarks measure the
 * client, and the page cache keeps data across a SIGKILL of the server anyway.
 */
export function baseConfig(dataDir: string, clientPort: number, tickTime: number): ZooCfg {
  return {
    tickTime,
    dataDir,
    clientPort,
    clientPortAddress: '127.0.0.1',
    'admin.enableServer': false,
    '4lw.commands.whitelist': '*',
    maxClientCnxns: 0,
    forceSync: 'no',
  };
}

/** Writes a zoo.cfg file from entries, in insertion order. */
export function writeZooCfg(path: string, config: ZooCfg): void {
  const lines = Object.entries(config).map(([key, value]) => `${key}=${String(value)}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/** JVM flags every server gets: a small heap and the serial collector, since test machines have few cores. */
export function baseJvmFlags(heapMb: number): string[] {
  // No log4j MBeans: releases before 3.8 register them unless told not to, and the tests log through SLF4J's
  // simple binding instead of log4j.
  return [
    `-Xmx${heapMb}m`,
    '-XX:+UseSerialGC',
    '-Djava.awt.headless=true',
    '-Dzookeeper.jmx.log4j.disable=true',
  ];
}
