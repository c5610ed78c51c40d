import { describe, expect, it } from 'vitest';
import type { HostAddress } from '../util/types.js';
import { HostRotation } from './host-rotation.js';

const host = (port: number): HostAddress => ({ host: '127.0.0.1', port });

describe('HostRotation', () => {
  it('walks the list round and round, and says when a failed attempt ended a full round', () => {
    const hosts = new HostRotation([host(1), host(2), host(3)]);
    expect(hosts.current).toBeUndefined();
    const tried: number[] = [];
    const rounds: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      tried.push(hosts.next().port);
      rounds.push(hosts.takeFullRound());
    }
    expect(tried).toEqual([1, 2, 3, 1, 2, 3]);
    expect(rounds).toEqual([false, false, true, false, false, true]);
  });

  it('goes on after the current host in a new list, or from the first one when moving', () => {
    const hosts = new HostRotation([host(1), host(2), host(3)]);
    hosts.next();
    hosts.next(); // on 2
    hosts.replace([host(4), host(2), host(5)], false);
    expect(hosts.current).toEqual(host(2));
    expect(hosts.next()).toEqual(host(5));
    hosts.replace([host(6), host(7)], true);
    hosts.markMove();
    expect(hosts.next()).toEqual(host(6));
    // the connection closed to move is not a failed round, even at the end of the list
    hosts.next();
    hosts.replace([host(6), host(7)], false);
    hosts.markMove();
    expect(hosts.takeFullRound()).toBe(false);
    expect(hosts.takeFullRound()).toBe(true);
  });

  it('tries a given host next (a read-write server found by the probe)', () => {
    const hosts = new HostRotation([host(1), host(2), host(3)]);
    hosts.next();
    hosts.tryNext(2);
    expect(hosts.next()).toEqual(host(3));
    hosts.tryNext(0);
    expect(hosts.next()).toEqual(host(1));
  });
});
