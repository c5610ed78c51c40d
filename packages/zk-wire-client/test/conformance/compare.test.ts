/**
 * The comparator on hand-made streams (no server): it must report an injected wrong result, a lost event and
 * a swapped pair, and the normalizer must not hide them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_DIFFERENCES } from './accepted-differences.js';
import { compareStreams, formatDifferences } from './compare.js';
import { releasesText } from './difference-helpers.js';
import { normalizeRun } from './normalize.js';
import type { Script } from './script.js';
import type { Entry, ScriptRun } from './stream.js';

const script: Script = {
  name: 'hand-made',
  sessions: [null],
  batches: [
    [{ op: 'create', path: '/a', data: '0' }],
    [{ op: 'getData', path: '/a', watch: 'w' }],
    [
      { op: 'setData', path: '/a', data: '1' },
      { op: 'getChildren', path: '/a' },
    ],
  ],
};

const stat = (version: number) => ({
  czxid: '5',
  mzxid: String(5 + version),
  ctime: '1700000000000',
  mtime: '1700000000000',
  version,
  cversion: 0,
  aversion: 0,
  ephemeralOwner: '0',
  dataLength: 1,
  numChildren: 0,
  pzxid: '5',
});

/** What both sides would record, under their own base. */
function stream(base: string): Entry[] {
  return [
    { kind: 'result', step: 0, op: 'create', value: `${base}/a` },
    { kind: 'result', step: 1, op: 'getData', value: { data: '0', stat: stat(0) } },
    { kind: 'event', watcher: 'w', type: 'dataChanged', path: `${base}/a` },
    { kind: 'result', step: 2, op: 'setData', value: stat(1) },
    { kind: 'result', step: 3, op: 'getChildren', value: [] },
  ];
}

const run = (side: 'ours' | 'java', base: string, streams: Entry[][]): ScriptRun => ({ side, base, streams });
/** Hand-made streams are normalized as a run of the default release would be. */
const release = { release: '3.9.5' };

function compare(mutate: (entries: Entry[]) => Entry[]) {
  const java = normalizeRun(script, run('java', '/j', [stream('/j')]), release);
  const ours = normalizeRun(script, run('ours', '/o', [mutate(stream('/o'))]), release);
  const differences = compareStreams(java, ours);
  return { differences, report: formatDifferences('hand-made', differences, java, ours) };
}

describe('the comparator', () => {
  it('finds nothing when the streams agree (each side under its own base, with its own zxids)', () => {
    const { differences } = compare((entries) =>
      entries.map((e) =>
        e.kind === 'result' && e.op === 'setData' ? { ...e, value: { ...stat(1), mzxid: '99' } } : e,
      ),
    );
    expect(differences).toEqual([]);
  });

  it('reports a wrong result', () => {
    const { differences, report } = compare((entries) =>
      entries.map((e) => (e.kind === 'result' && e.op === 'setData' ? { ...e, value: stat(7) } : e)),
    );
    expect(differences).toHaveLength(1);
    expect(differences[0]).toMatchObject({
      kind: 'wrong-result',
      index: 3,
      java: { step: 2 },
      ours: { step: 2 },
    });
    expect(report).toContain('wrong-result');
  });

  it('reports a wrong error code', () => {
    const { differences } = compare((entries) =>
      entries.map((e) =>
        e.kind === 'result' && e.op === 'getChildren'
          ? { kind: 'error', step: 3, op: 'getChildren', code: 'NONODE' }
          : e,
      ),
    );
    expect(differences.map((d) => d.kind)).toEqual(['wrong-result']);
  });

  it('reports a lost event', () => {
    const { differences } = compare((entries) => entries.filter((e) => e.kind !== 'event'));
    expect(differences).toEqual([
      expect.objectContaining({ kind: 'missing-in-ours', java: expect.objectContaining({ kind: 'event' }) }),
    ]);
  });

  it('reports an extra event', () => {
    const { differences } = compare((entries) => [
      ...entries,
      { kind: 'event', watcher: 'w', type: 'deleted', path: '/o/a' },
    ]);
    expect(differences.map((d) => d.kind)).toEqual(['extra-in-ours']);
  });

  it('reports a swapped pair: an event delivered after the reply that followed it', () => {
    const { differences } = compare((entries) => {
      const swapped = [...entries];
      [swapped[2], swapped[3]] = [swapped[3] as Entry, swapped[2] as Entry];
      return swapped;
    });
    expect(differences).toEqual([expect.objectContaining({ kind: 'swapped', index: 2 })]);
  });

  it('reports two replies settled out of order', () => {
    const { differences } = compare((entries) => [
      ...entries.slice(0, 3),
      entries[4] as Entry,
      entries[3] as Entry,
    ]);
    expect(differences.map((d) => d.kind)).toEqual(['swapped']);
  });

  it('reports a session whose stream is missing altogether', () => {
    const java = normalizeRun(script, run('java', '/j', [stream('/j')]), release);
    const differences = compareStreams(java, normalizeRun(script, run('ours', '/o', [[]]), release));
    expect(differences).toHaveLength(stream('/j').length);
    expect(differences.every((d) => d.kind === 'missing-in-ours')).toBe(true);
  });
});

describe('the accepted-difference list', () => {
  it('is copied, entry for entry, into docs/contracts.md', () => {
    const docs = readFileSync(new URL('../../../../docs/contracts.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Differences from the Java client (conformance test)'));
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const listed = [...section.matchAll(/^- \*\*([^*]+)\*\*/gm)].map((m) => m[1]);
    expect(listed).toEqual(ACCEPTED_DIFFERENCES.map((d) => d.id));
    for (const difference of ACCEPTED_DIFFERENCES) {
      const side =
        difference.side === 'both' ? 'both sides' : `${difference.side === 'java' ? 'Java' : 'our'} side`;
      expect(flat(section)).toContain(`**${difference.id}** (${side}; ${releasesText(difference)}):`);
      expect(flat(section)).toContain(flat(difference.why));
    }
  });
});
