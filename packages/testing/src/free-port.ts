import { createServer } from 'node:net';

/*
 * Ports are picked at random below Linux's ephemeral range (32768-60999), so an outgoing connection of some
 * other process cannot take a port between our check and the JVM's bind, and parallel test workers rarely
 * pick the same one. A port handed out once is never handed out again by this process.
 */
const LOW = 20_000;
const HIGH = 32_000;
const handedOut = new Set<number>();

function canBind(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Finds a TCP port that is free on `host` (default 127.0.0.1) right now and reserves it for this process.
 * Another process may still bind it before you do: callers that start servers retry on a bind failure.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canBind(port, host)) return port;
  }
  throw new Error(`freePort: no free port found on ${host} in ${LOW}-${HIGH}`);
}

/** Finds `count` distinct free ports (see {@link freePort}). */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const ports: number[] = [];
  for (let i = 0; i < count; i++) ports.push(await freePort(host));
  return ports;
}
