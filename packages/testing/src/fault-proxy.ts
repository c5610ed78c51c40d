import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** Which way bytes flow through the proxy. */
export type ProxyDirection = 'toClient' | 'toServer';

/** A loopback TCP proxy between a client and a server that misbehaves on command (see {@link startFaultProxy}). */
export interface FaultProxy extends AsyncDisposable {
  /** Always 127.0.0.1. */
  readonly host: string;
  /** The port clients connect to. */
  readonly port: number;
  /** `host:port`, to give a client instead of the server's. */
  readonly connectString: string;
  /** Connections open right now. */
  readonly connectionCount: number;
  /** Connections accepted and forwarded since the start (refused ones not counted). */
  readonly totalConnections: number;
  /**
   * Holds bytes (in memory) until {@link resume}; the connections stay open. Both ways by default, or one way
   * only (`toServer`: the server hears nothing while the client still gets what the server sends).
   */
  pause(direction?: ProxyDirection): void;
  /** Delivers the held bytes, in order, and forwards again. */
  resume(): void;
  /** While on, silently discards bytes arriving from either side. */
  drop(on: boolean): void;
  /** Resets (TCP RST) every current connection, on both sides. */
  cut(): void;
  /**
   * Holds every chunk until `ms` after its arrival before forwarding it; order is kept. The delay is read when a
   * chunk is due, so lowering it (to 0: off) releases held chunks at once.
   */
  delay(ms: number): void;
  /** Passes chunks going `direction` through `mutate`: for every chunk, or only the next one when `once`. */
  corrupt(direction: ProxyDirection, mutate: (chunk: Buffer) => Buffer, once?: boolean): void;
  /** Removes every corruption set by {@link corrupt}. */
  clearCorruption(): void;
  /** Sends `bytes` to the client (`toClient`) or the server (`toServer`) of every current connection. */
  inject(direction: ProxyDirection, bytes: Buffer): void;
  /** While on, accepts new connections and closes them at once (the client sees a connect, then EOF). */
  refuse(on: boolean): void;
  /** Closes every connection and stops listening. */
  close(): Promise<void>;
}

interface Corruption {
  mutate: (chunk: Buffer) => Buffer;
  once: boolean;
}

interface ProxyState {
  paused: Record<ProxyDirection, boolean>;
  dropping: boolean;
  delayMs: number;
  corruptions: Record<ProxyDirection, Corruption[]>;
}

/** One direction of one connection: a FIFO of chunks, each released once delayed enough, unless paused. */
class Lane {
  private readonly queue: Array<{ bytes: Buffer; arrived: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private ending = false;

  constructor(
    private readonly state: ProxyState,
    private readonly destination: Socket,
    private readonly direction: ProxyDirection,
  ) {}

  push(bytes: Buffer): void {
    this.queue.push({ bytes, arrived: Date.now() });
    this.pump();
  }

  /** Ends the destination (FIN) once every queued chunk has gone out. */
  end(): void {
    this.ending = true;
    this.pump();
  }

  pump(): void {
    if (this.timer || this.destination.destroyed) return;
    while (!this.state.paused[this.direction] && this.queue.length > 0) {
      const head = this.queue[0] as { bytes: Buffer; arrived: number };
      const wait = head.arrived + this.state.delayMs - Date.now();
      if (wait > 0) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.pump();
        }, wait);
        return;
      }
      this.queue.shift();
      this.destination.write(head.bytes);
    }
    if (this.ending && this.queue.length === 0) this.destination.end();
  }

  /** Re-reads the delay: drops the pending timer and pumps again. */
  retime(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pump();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }
}

class ProxiedConnection {
  readonly lanes: Record<ProxyDirection, Lane>;

  constructor(
    private readonly state: ProxyState,
    readonly client: Socket,
    readonly upstream: Socket,
    onClosed: () => void,
  ) {
    this.lanes = {
      toServer: new Lane(state, upstream, 'toServer'),
      toClient: new Lane(state, client, 'toClient'),
    };
    this.wire(client, 'toServer', upstream);
    this.wire(upstream, 'toClient', client);
    let open = 2;
    const closed = () => {
      open -= 1;
      if (open === 0) {
        this.lanes.toClient.stop();
        this.lanes.toServer.stop();
        onClosed();
      }
    };
    client.once('close', closed);
    upstream.once('close', closed);
  }

  private wire(source: Socket, direction: ProxyDirection, destination: Socket): void {
    source.on('data', (chunk: Buffer) => {
      if (this.state.dropping) return;
      this.lanes[direction].push(this.applyCorruption(direction, chunk));
    });
    source.on('end', () => this.lanes[direction].end());
    // An error on one side is passed on as a reset of the other, so the peer sees what a real failure looks like.
    source.on('error', () => {
      if (!destination.destroyed) destination.resetAndDestroy();
    });
  }

  private applyCorruption(direction: ProxyDirection, chunk: Buffer): Buffer {
    const corruptions = this.state.corruptions[direction];
    let bytes = chunk;
    for (const corruption of [...corruptions]) {
      bytes = corruption.mutate(bytes);
      if (corruption.once) corruptions.splice(corruptions.indexOf(corruption), 1);
    }
    return bytes;
  }

  reset(): void {
    for (const socket of [this.client, this.upstream]) if (!socket.destroyed) socket.resetAndDestroy();
  }
}

class FaultProxyImpl implements FaultProxy {
  readonly host = '127.0.0.1';
  private readonly state: ProxyState = {
    paused: { toServer: false, toClient: false },
    dropping: false,
    delayMs: 0,
    corruptions: { toClient: [], toServer: [] },
  };
  private readonly connections = new Set<ProxiedConnection>();
  private refusing = false;
  private accepted = 0;

  constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  private accept(client: Socket): void {
    client.on('error', () => {});
    if (this.refusing) {
      client.destroy();
      return;
    }
    this.accepted += 1;
    client.pause();
    const upstream = tcpConnect({ host: this.target.host, port: this.target.port, noDelay: true });
    upstream.on('error', () => {});
    const connection = new ProxiedConnection(this.state, client, upstream, () =>
      this.connections.delete(connection),
    );
    this.connections.add(connection);
    upstream.once('connect', () => client.resume());
  }

  get port(): number {
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('fault proxy is not listening');
    return address.port;
  }
  get connectString(): string {
    return `${this.host}:${this.port}`;
  }
  get connectionCount(): number {
    return this.connections.size;
  }
  get totalConnections(): number {
    return this.accepted;
  }

  private pumpAll(): void {
    for (const connection of this.connections) {
      connection.lanes.toClient.pump();
      connection.lanes.toServer.pump();
    }
  }

  pause(direction?: ProxyDirection): void {
    if (direction !== undefined && direction !== 'toServer' && direction !== 'toClient') {
      throw new RangeError(`pause direction must be 'toServer' or 'toClient', got ${String(direction)}`);
    }
    if (direction === undefined || direction === 'toServer') this.state.paused.toServer = true;
    if (direction === undefined || direction === 'toClient') this.state.paused.toClient = true;
  }
  resume(): void {
    this.state.paused.toServer = false;
    this.state.paused.toClient = false;
    this.pumpAll();
  }
  drop(on: boolean): void {
    this.state.dropping = on;
  }
  cut(): void {
    for (const connection of this.connections) connection.reset();
  }
  delay(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`delay must be a finite number >= 0, got ${ms}`);
    this.state.delayMs = ms;
    for (const connection of this.connections) {
      connection.lanes.toClient.retime();
      connection.lanes.toServer.retime();
    }
  }
  corrupt(direction: ProxyDirection, mutate: (chunk: Buffer) => Buffer, once = false): void {
    this.state.corruptions[direction].push({ mutate, once });
  }
  clearCorruption(): void {
    this.state.corruptions.toClient.length = 0;
    this.state.corruptions.toServer.length = 0;
  }
  inject(direction: ProxyDirection, bytes: Buffer): void {
    for (const connection of this.connections) connection.lanes[direction].push(Buffer.from(bytes));
  }
  refuse(on: boolean): void {
    this.refusing = on;
  }
  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Starts a TCP proxy on 127.0.0.1 (a free port) that forwards every connection to `target` and can pause,
 * drop, delay, corrupt, inject, cut and refuse on command, so a test can produce disconnects, timeouts,
 * expiries and bad bytes at will against a real server.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  // TCP_NODELAY on both sockets, as the clients set on theirs: with Nagle on, a small chunk written while an
  // earlier one is unacknowledged waits for the peer's delayed ACK (about 40 ms on Linux), so the proxy would
  // hold a reply that a direct connection delivers at once.
  const server = createServer({ pauseOnConnect: false, noDelay: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return new FaultProxyImpl(server, target);
}
