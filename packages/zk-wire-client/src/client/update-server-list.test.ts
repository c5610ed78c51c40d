import { describe, expect, it } from 'vitest';
import { createClient, InvalidArgumentError } from '../index.js';

// Port 1 on loopback refuses connections: the client keeps trying, which is all these tests need.
const nowhere = (port: number) => `127.0.0.1:${port}`;

describe('updateServerList and ensembleTracking without a server', () => {
  it('refuses a bad ensembleTracking option and a bad list at once, naming them', async () => {
    expect(() =>
      createClient({ connectString: nowhere(1), ensembleTracking: 'yes' as unknown as boolean }),
    ).toThrow(/ensembleTracking/);
    const zk = createClient({ connectString: `${nowhere(1)}/app` });
    try {
      expect(() => zk.updateServerList('')).toThrow(InvalidArgumentError);
      expect(() => zk.updateServerList('h:99999')).toThrow(/connectString/);
      expect(() => zk.updateServerList(`${nowhere(2)}/other`)).toThrow(/chroot/);
      expect(zk.serverList).toEqual(['127.0.0.1:1']);
    } finally {
      await zk.close();
    }
  });

  it('replaces the list (its chroot or none); a client whose server is gone moves, one whose server stays does not', async () => {
    const zk = createClient({ connectString: nowhere(1) });
    try {
      expect(zk.updateServerList(`${nowhere(1)},${nowhere(1)}`)).toBe(false);
      expect(zk.serverList).toEqual(['127.0.0.1:1']);
      expect(zk.updateServerList(`${nowhere(2)},${nowhere(3)}/`)).toBe(true);
      expect([...zk.serverList].sort()).toEqual(['127.0.0.1:2', '127.0.0.1:3']);
      expect(zk.ensembleConfig).toBeUndefined();
    } finally {
      await zk.close();
    }
    expect(zk.updateServerList(nowhere(4))).toBe(false);
  });
});
