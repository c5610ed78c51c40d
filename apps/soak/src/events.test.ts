import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { EventLog } from './event-log.js';
import { parseEventLog } from './events.js';

it('writes JSON lines with process and time, and reads them back skipping a line torn by a kill', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'soak-log-')), 'p.jsonl');
  const log = new EventLog(path, 'node-1');
  log.write({ kind: 'put', id: 'a' });
  log.write({ kind: 'op', op: 'queue-put', ok: false, error: 'CONNECTIONLOSS' });
  log.close();
  const text = `${readFileSync(path, 'utf8')}{"t":1,"proc":"node-1","kind":"pu`;
  const events = parseEventLog(text);
  expect(events.map((e) => [e.proc, e.kind])).toEqual([
    ['node-1', 'put'],
    ['node-1', 'op'],
  ]);
  expect(typeof events[0]?.t).toBe('number');
  expect(log.counts).toEqual(
    new Map([
      ['put', 1],
      ['op:queue-put', 1],
    ]),
  );
});
