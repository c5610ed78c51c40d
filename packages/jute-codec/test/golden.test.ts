// Golden vectors: the official Java jute classes of the run's ZooKeeper release (3.9.5 by default) serialize every record
// kind, and our bytes must equal theirs byte for byte; we decode their bytes back to the same value; and
// Java reads our bytes and writes them out again unchanged. The Java driver is compiled at test time.
// From 3.9 the jute schema has the handshake's readOnly byte as a last field of ConnectRequest and
// ConnectResponse (ZOOKEEPER-4492); our records keep the 3.5-3.8 schema and the client writes that byte after
// them, so against 3.9+ the two records are compared with the byte as a field.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileJava, findZooKeeper, versionAtLeast } from '@zkwire/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode, type JuteLayout, type JuteRecord, records } from '../src/index';
import { bool, buffer, int32, int64, juteRecord, record } from '../src/layouts';
import { arbitraryOf, bmpStrings } from '../src/testing/arbitraries';
import { javaBuilder, javaDriver, javaString } from './golden/java-source';

const RELEASE = findZooKeeper();
const JARS = RELEASE.classpath;
const READ_ONLY_IN_SCHEMA = versionAtLeast(RELEASE.version, '3.9.0');
const SAMPLES_PER_RECORD = 12;

interface Case {
  record: JuteRecord<unknown>;
  value: unknown;
  ours: Buffer;
}

// The smallest and the largest value of each type: -1-null for every length-prefixed field, then extremes.
function extreme(layout: JuteLayout<unknown>, low: boolean): unknown {
  const jute = layout.jute;
  switch (jute.type) {
    case 'int':
      return low ? -2147483648 : 2147483647;
    case 'long':
      return low ? -(2n ** 63n) : 2n ** 63n - 1n;
    case 'boolean':
      return !low;
    case 'ustring':
      return low ? null : 'é/中\u0000"\\\n';
    case 'buffer':
      return low ? null : Buffer.from([0, 0x7f, 0x80, 0xff]);
    case 'vector':
      return low
        ? null
        : [extreme(jute.element, false), extreme(jute.element, true)].filter((v) => v !== null);
    case 'record':
      return Object.fromEntries(jute.fields.map((f) => [f.property as string, extreme(f, low)]));
  }
}

function casesFor(record: JuteRecord<unknown>, seed: number): unknown[] {
  const arbitrary = arbitraryOf(record.layout, { strings: bmpStrings });
  return [
    extreme(record.layout, true),
    extreme(record.layout, false),
    ...fc.sample(arbitrary, { seed, numRuns: SAMPLES_PER_RECORD }),
  ];
}

const handshakeWithReadOnly = {
  ConnectRequest: juteRecord(
    record('ConnectRequest', [
      int32('protocolVersion'),
      int64('lastZxidSeen'),
      int32('timeOut'),
      int64('sessionId'),
      buffer('passwd'),
      bool('readOnly'),
    ]),
  ),
  ConnectResponse: juteRecord(
    record('ConnectResponse', [
      int32('protocolVersion'),
      int32('timeOut'),
      int64('sessionId'),
      buffer('passwd'),
      bool('readOnly'),
    ]),
  ),
};
const all = Object.values(
  READ_ONLY_IN_SCHEMA ? { ...records, ...handshakeWithReadOnly } : records,
) as JuteRecord<unknown>[];
const cases: Case[] = [];
const results = new Map<number, { java: string; reread: string }>();
let workDir = '';
let setupError: unknown;

// A setup failure (no javac, no jars) must fail every test with its message, not skip them.
function ready(): void {
  if (setupError !== undefined) throw setupError;
}

beforeAll(async () => {
  try {
    await setup();
  } catch (error) {
    setupError = error;
  }
}, 120_000);

async function setup(): Promise<void> {
  for (const jar of JARS) {
    if (!existsSync(jar)) throw new Error(`${jar} not found. Install it with \`apt-get install zookeeper\`.`);
  }
  all.forEach((record, r) => {
    for (const value of casesFor(record, 1000 + r))
      cases.push({ record, value, ours: encode(record, value) });
  });
  // Pins the one known difference (below): a supplementary character, which Java writes as CESU-8.
  cases.push({
    record: records.WatcherEvent as JuteRecord<unknown>,
    value: { type: 1, state: 3, path: '/\u{1F600}' },
    ours: encode(records.WatcherEvent, { type: 1, state: 3, path: '/\u{1F600}' }),
  });

  // compileJava throws a MissingComponentError naming `default-jdk-headless` when javac is missing: the
  // test then fails, it does not skip.
  const compiled = await compileJava({
    sources: {
      'GoldenDriver.java': javaDriver(
        cases.map((c) => ({ record: c.record.name, body: javaBuilder(c.record.layout, c.value) })),
      ),
    },
    classpath: JARS,
  });
  workDir = mkdtempSync(join(tmpdir(), 'jute-golden-'));
  const input = join(workDir, 'ours.txt');
  writeFileSync(
    input,
    cases.map((c, i) => `${i} ${c.ours.length === 0 ? '-' : c.ours.toString('hex')}`).join('\n'),
  );
  const run = await compiled.exec('GoldenDriver', [input]);
  if (run.code !== 0) throw new Error(`GoldenDriver exited with ${run.code}:\n${run.stderr}`);
  for (const line of run.stdout.trim().split('\n')) {
    const [index, java, reread] = line.split(' ');
    const unhex = (s: string | undefined) => (s === '-' ? '' : (s ?? 'missing'));
    results.set(Number(index), { java: unhex(java), reread: unhex(reread) });
  }
}

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const byRecord = all.map((record) => [record.name, record] as const);

describe.each(byRecord)(`%s golden vectors (Java jute ${RELEASE.version})`, (name) => {
  const mine = () => {
    ready();
    return cases
      .map((c, i) => ({ ...c, index: i }))
      .filter((c) => c.record.name === name && results.has(c.index));
  };

  it('our bytes equal the Java BinaryOutputArchive bytes', () => {
    const list = mine().filter((c) => !hasSupplementary(c.value));
    expect(list.length).toBeGreaterThanOrEqual(SAMPLES_PER_RECORD);
    for (const c of list) {
      expect(c.ours.toString('hex'), `${name} ${javaString(JSON.stringify(c.value, bigints))}`).toBe(
        results.get(c.index)!.java,
      );
    }
  });

  it('we decode the Java bytes back to the value', () => {
    for (const c of mine().filter((c) => !hasSupplementary(c.value))) {
      expect(decode(c.record, Buffer.from(results.get(c.index)!.java, 'hex'))).toEqual(c.value);
    }
  });

  it('Java reads our bytes and writes them out unchanged', () => {
    for (const c of mine().filter((c) => !hasSupplementary(c.value))) {
      expect(results.get(c.index)!.reread).toBe(c.ours.toString('hex'));
    }
  });
});

describe('strings outside the BMP (the one known difference)', () => {
  it('Java writes a surrogate pair as two 3-byte sequences (CESU-8), we write standard UTF-8', () => {
    ready();
    const index = cases.length - 1;
    const { java, reread } = results.get(index)!;
    const emoji = (hex: string) => hex.slice(24 + 2); // after type, state, length and '/'
    expect(emoji(cases[index]!.ours.toString('hex'))).toBe('f09f9880');
    expect(emoji(java)).toBe('eda0bdedb880');
    // Java's reader decodes standard UTF-8, so it reads our bytes as the right string (and writes it in
    // its own form), which is what a server receiving our requests does.
    expect(emoji(reread)).toBe('eda0bdedb880');
  });
});

function hasSupplementary(value: unknown): boolean {
  return /[\u{10000}-\u{10FFFF}]/u.test(JSON.stringify(value, bigints) ?? '');
}

function bigints(_key: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}
