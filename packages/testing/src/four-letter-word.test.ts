import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fourLetterWord, parseMntr, parseMode, parseWatchesByPath } from './four-letter-word.js';

const SRVR_FOLLOWER = `Zookeeper version: 3.8.0-\${mvngit.commit.id}, built on 2024-12-29 17:54 UTC
Latency min/avg/max: 0/0.0/0
Received: 2
Sent: 1
Connections: 1
Outstanding: 0
Zxid: 0x200000000
Mode: follower
Node count: 5
`;

describe('parseMode', () => {
  it('reads the Mode line', () => {
    expect(parseMode(SRVR_FOLLOWER)).toBe('follower');
    expect(parseMode('Mode: standalone\n')).toBe('standalone');
    expect(parseMode('READ-ONLY mode; serving only read-only clients\nMode: read-only\n')).toBe('read-only');
  });
  it('is undefined while the server is not serving', () => {
    expect(parseMode('This ZooKeeper instance is not currently serving requests\n')).toBeUndefined();
    expect(parseMode('')).toBeUndefined();
  });
});

describe('parseMntr', () => {
  it('splits key/value lines at the tab', () => {
    const mntr = parseMntr('zk_version\t3.8.0\nzk_server_state\tleader\nzk_synced_followers\t2\n');
    expect(mntr.get('zk_server_state')).toBe('leader');
    expect(mntr.get('zk_synced_followers')).toBe('2');
    expect(mntr.size).toBe(3);
  });
});

describe('fourLetterWord', () => {
  it('refuses a command that is not four lowercase letters, before connecting', async () => {
    await expect(fourLetterWord('127.0.0.1', 1, 'stat; rm')).rejects.toThrow(TypeError);
  });

  it('returns what arrived when the peer answers but never closes (a server still loading)', async () => {
    const server = createServer((socket) => socket.once('data', () => socket.write('imok')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await fourLetterWord('127.0.0.1', port, 'ruok', { timeoutMs: 200 })).toBe('imok');
    } finally {
      server.close();
    }
  });

  it('rejects when nothing answers', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await expect(fourLetterWord('127.0.0.1', port, 'ruok', { timeoutMs: 100 })).rejects.toThrow(
        /no answer/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});

describe('parseWatchesByPath', () => {
  it('gives each watched path its sessions, and a path with none an empty list', () => {
    const answer = '/a\n\t0x1000001\n\t0x1000002\n/b/c\n\t0x1000002\n/empty\n\n';
    expect([...parseWatchesByPath(answer)]).toEqual([
      ['/a', ['0x1000001', '0x1000002']],
      ['/b/c', ['0x1000002']],
      ['/empty', []],
    ]);
  });
});
