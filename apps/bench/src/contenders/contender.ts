/**
 * What a contender is to the bench: its names, which cases it can run, how it gets ready before the first
 * cell, and the command line of one cell. A Node client gives the worker a driver (driver.ts); the raw limit
 * runs whole cells itself; an external driver is a program of its own (driver-protocol.ts).
 */
import type { CellResult, CellSpec, ContenderId, ScenarioKind, ThroughputOp } from '../types.js';
import type { DriverFactory } from './driver.js';

/** Ready, with the command line of a cell, or why not. */
export type Prepared =
  | { ok: true; detail: string; command: (spec: CellSpec) => string[] }
  | { ok: false; reason: string };

export interface Contender {
  id: ContenderId;
  /** for tables, and for narrow columns and the chart */
  label: string;
  short: string;
  color: string;
  /** `scenario` tells the scale scenarios apart: each has its own contenders */
  supports(kind: ScenarioKind, op?: ThroughputOp, scenario?: string): boolean;
  /** installs, builds or compiles what it needs; never throws */
  prepare(log: (line: string) => void): Promise<Prepared>;
  connect?: DriverFactory;
  runCell?: (spec: CellSpec) => Promise<CellResult>;
}

/** The kinds every client contender runs (the ones without recipes, memory or scale cells). */
export const clientKinds = (kind: ScenarioKind) =>
  kind === 'throughput' || kind === 'latency' || kind === 'session' || kind === 'watch';
