import { describe, expect, it } from 'vitest';
import { complete } from './completion.js';
import { connectionSettings } from './connection-options.js';
import { redactForHistory } from './history-file.js';
import { Output } from './output.js';
import { CliSession } from './session.js';

const session = () =>
  new CliSession(connectionSettings({}, {}), new Output(process.stdout, process.stderr, false, false));

describe('completion without a server', () => {
  it('completes command names in first position', async () => {
    expect(await complete(session(), 'getA')).toEqual([['getAcl', 'getAllChildrenNumber'], 'getA']);
    expect(await complete(session(), 'remove')).toEqual([['removewatches'], 'remove']);
  });

  it("completes a command's flags", async () => {
    const [flags] = await complete(session(), 'create -');
    expect(flags).toEqual(expect.arrayContaining(['-e', '--ephemeral', '-t', '--ttl', '--json']));
  });

  it('offers no paths when not connected', async () => {
    expect(await complete(session(), 'ls /zoo')).toEqual([[], '/zoo']);
  });
});

describe('history', () => {
  it('masks the credentials of addauth', () => {
    expect(redactForHistory('addauth digest bob:secret')).toBe('addauth digest ***');
    expect(redactForHistory('get /a')).toBe('get /a');
  });
});
