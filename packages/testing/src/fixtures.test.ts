import { describe, expect, it } from 'vitest';
import { ensembleFixture, serverFixture } from './fixtures.js';

describe('ensembleFixture', () => {
  it('says the ensemble is not started until start resolved', () => {
    const fixture = ensembleFixture({ size: 3 });
    expect(() => fixture.ensemble).toThrow(/not started/);
  });

  it('closes what it tracks newest first, past errors, and stops safely without a start', async () => {
    const fixture = ensembleFixture();
    const closed: string[] = [];
    const proxy = { close: async () => void closed.push('proxy') };
    expect(fixture.track(proxy)).toBe(proxy);
    fixture.track({
      close: async () => {
        closed.push('closed twice');
        throw new Error('already closed');
      },
    });
    fixture.track({ close: () => void closed.push('client') });
    await fixture.stop();
    expect(closed).toEqual(['client', 'closed twice', 'proxy']);
    await fixture.stop();
    expect(closed).toHaveLength(3);
  });

  it('refuses to track what it cannot close', () => {
    const fixture = ensembleFixture();
    expect(() => fixture.track({} as { close(): void })).toThrow(TypeError);
    expect(() => fixture.track(undefined as unknown as { close(): void })).toThrow(TypeError);
  });

  it('refuses a bad size when started, before any JVM', async () => {
    await expect(ensembleFixture({ size: 0 }).start()).rejects.toThrow(RangeError);
  });
});

describe('serverFixture', () => {
  it('says the server is not started until start resolved, and stops safely without a start', async () => {
    const fixture = serverFixture();
    expect(() => fixture.server).toThrow(/serverFixture: not started/);
    const closed: string[] = [];
    fixture.track({ close: () => void closed.push('client') });
    await fixture.stop();
    expect(closed).toEqual(['client']);
  });
});
