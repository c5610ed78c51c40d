/**
 * The external drivers built from sources (Go, Rust: any that speaks driver-protocol.ts) against a real server: each kind of
 * cell they support, run as the bench runs it (a turn cell through the start barrier), gives figures above zero
 * in the shape the report reads. A driver whose toolchain is missing must say why; on this project's machines
 * the toolchains are present, so that fails the test rather than skipping it.
 */
import { startZooKeeper, type ZooKeeperServer } from '@zkwire/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prepared } from '../src/contenders/contender.js';
import { contenders } from '../src/contenders/index.js';
import { createFixtures, removeFixtures } from '../src/fixtures.js';
import { runCellProcess, StartBarrier } from '../src/run-cell.js';
import type { CellSpec, ContenderId, FixturePaths } from '../src/types.js';

let server: ZooKeeperServer;
let paths: FixturePaths;

beforeAll(async () => {
  server = await startZooKeeper();
  paths = await createFixtures(server.connectString, `drivers${process.pid}`, 100, false);
}, 120_000);

afterAll(async () => {
  await removeFixtures(server.connectString, paths.root);
  await server[Symbol.asyncDispose]();
});

const turns = { index: 0, of: 1, turnMs: 200, gapMs: 100, cycles: 2, warmUpMs: 200 };

function spec(contender: ContenderId, cell: Partial<CellSpec>): CellSpec {
  return {
    contender,
    scenario: 'getData',
    kind: 'throughput',
    inFlight: 16,
    warmupMs: 100,
    durationMs: 300,
    connectString: server.connectString,
    paths,
    dataSize: 100,
    cellId: `t${process.pid}`,
    ...cell,
  };
}

for (const id of ['go', 'rust'] as const) {
  describe(`the ${id} driver`, () => {
    let prepared: Prepared;
    beforeAll(async () => {
      prepared = await contenders[id].prepare(() => {});
    }, 600_000);

    const run = async (cell: Partial<CellSpec>) => {
      if (!prepared.ok) throw new Error(`${id} is not ready: ${prepared.reason}`);
      const s = spec(id, cell);
      return runCellProcess([], prepared.command(s), 60_000, s.turns ? new StartBarrier(1) : undefined);
    };

    it('builds', () => {
      expect(prepared.ok, prepared.ok ? '' : prepared.reason).toBe(true);
    });

    it.each(['getData', 'exists', 'setData', 'getChildren', 'createDelete', 'multi'] as const)(
      'runs %s in turns, with one rate and CPU figure per measured turn',
      async (op) => {
        const result = await run({ scenario: op, op, turns });
        expect(result).toMatchObject({ ok: true, errors: 0 });
        if (!result.ok) return;
        expect(result.ops).toBeGreaterThan(0);
        expect(result.cpuUs).toBeGreaterThan(0);
        expect(result.turnRates).toHaveLength(turns.cycles);
        expect(result.turnCpuUsPerOp).toHaveLength(turns.cycles);
      },
      60_000,
    );

    it('runs an open loop in turns, with percentiles and one p99 per measured turn', async () => {
      const result = await run({ scenario: 'latency', kind: 'latency', inFlight: 1, rate: 500, turns });
      expect(result).toMatchObject({ ok: true, errors: 0 });
      if (!result.ok) return;
      expect(result.latency?.count ?? 0).toBeGreaterThan(0);
      expect(result.latency?.p50 ?? 0).toBeGreaterThan(0);
      expect(result.turnP99Us).toHaveLength(turns.cycles);
    }, 60_000);

    it.each(['session', 'watch'] as const)(
      'runs %s cells alone, with latencies',
      async (kind) => {
        const result = await run({ scenario: kind, kind, inFlight: 1 });
        expect(result).toMatchObject({ ok: true });
        if (!result.ok) return;
        expect(result.ops).toBeGreaterThan(0);
        expect(result.latency?.p50 ?? 0).toBeGreaterThan(0);
      },
      60_000,
    );
  });
}
