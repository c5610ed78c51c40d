import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { concealCredentials, concealProperty } from './conceal.js';

describe('concealCredentials', () => {
  const options = {
    connectString: 'h:1',
    sasl: { mechanism: 'DIGEST-MD5', username: 'bob', password: 'sasl-secret-1' },
    auth: [{ scheme: 'digest', credentials: 'bob:digest-secret-2' }],
  };

  it('hides the secrets from inspect, JSON and Object.keys, keeps them readable, leaves the input alone', () => {
    const concealed = concealCredentials(options);
    for (const shown of [inspect(concealed, { depth: Infinity }), JSON.stringify(concealed)]) {
      expect(shown).not.toContain('sasl-secret-1');
      expect(shown).not.toContain('digest-secret-2');
      expect(shown).toContain('bob');
    }
    expect(concealed.sasl.password).toBe('sasl-secret-1');
    expect(concealed.auth[0]!.credentials).toBe('bob:digest-secret-2');
    expect({ ...concealed.sasl }).not.toHaveProperty('password');
    expect(inspect(options, { depth: Infinity })).toContain('sasl-secret-1');
  });

  it('passes options without credentials through', () => {
    expect(concealCredentials({ connectString: 'h:1' } as { sasl?: undefined; auth?: undefined })).toEqual({
      connectString: 'h:1',
    });
  });

  it('concealProperty keeps the value writable', () => {
    const saved = concealProperty({ scheme: 'digest', auth: new Uint8Array([1, 2]) }, 'auth');
    expect(Object.keys(saved)).toEqual(['scheme']);
    saved.auth = new Uint8Array([3]);
    expect(saved.auth).toEqual(new Uint8Array([3]));
  });
});
