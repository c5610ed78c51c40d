import { describe, expect, it } from 'vitest';
import { connectionSettings } from './connection-options.js';
import { ExitCode, reportError, UsageError } from './errors.js';

describe('connection settings', () => {
  it('takes the server and credentials from the environment when no flag gives them', () => {
    const settings = connectionSettings(
      {},
      {
        ZKWIRE_SERVER: 'zk1:2181/app',
        ZKWIRE_AUTH: 'digest:bob:secret',
        ZKWIRE_SASL_USER: 'alice',
        ZKWIRE_SASL_PASSWORD: 'pw',
        ZKWIRE_TIMEOUT: '2500',
      },
    );
    expect(settings.connectString).toBe('zk1:2181/app');
    expect(settings.requestTimeoutMs).toBe(2500);
    expect(settings.client.auth).toEqual([{ scheme: 'digest', credentials: 'bob:secret' }]);
    expect(settings.client.sasl).toEqual({ mechanism: 'DIGEST-MD5', username: 'alice', password: 'pw' });
  });

  it('lets flags win over the environment', () => {
    const settings = connectionSettings(
      { server: 'flag:2181', auth: ['digest:a:b', 'digest:c:d'] },
      { ZKWIRE_SERVER: 'env:2181', ZKWIRE_AUTH: 'digest:x:y' },
    );
    expect(settings.connectString).toBe('flag:2181');
    expect(settings.client.auth?.map((entry) => entry.credentials)).toEqual(['a:b', 'c:d']);
  });

  it('builds TLS options: true alone, servername and insecure as given', () => {
    expect(connectionSettings({ tls: true }, {}).client.tls).toBe(true);
    expect(connectionSettings({ tlsServername: 'zk.example', tlsInsecure: true }, {}).client.tls).toEqual({
      servername: 'zk.example',
      rejectUnauthorized: false,
    });
  });

  it('refuses bad values with usage errors that do not repeat secrets', () => {
    expect(() => connectionSettings({ timeout: 'soon' }, {})).toThrow(UsageError);
    expect(() => connectionSettings({ auth: ['nocolon'] }, {})).toThrow(/scheme:credentials/);
    expect(() => connectionSettings({ tlsCa: '/no/such/ca.pem' }, {})).toThrow(/--tls-ca: cannot read/);
    let message = '';
    try {
      connectionSettings({}, { ZKWIRE_SASL_PASSWORD: 'topsecret' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SASL needs both/);
    expect(message).not.toContain('topsecret');
  });

  it('maps errors to exit codes: usage 2, ZooKeeper 1 with the code name first', () => {
    expect(reportError(new UsageError('nope'))).toEqual({
      message: 'nope',
      code: 'USAGE',
      exitCode: ExitCode.USAGE,
    });
    const aborted = reportError(new DOMException('aborted', 'AbortError'));
    expect(aborted.code).toBe('CANCELLED');
  });
});
