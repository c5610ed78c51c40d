/** The states, options, events and failure error of `SetPartitioner` (kazoo's `PartitionState` and arguments). */

import { hostname } from 'node:os';
import { checkNodeName as checkOneNodeName } from '@zkwire/common';
import {
  InvalidRecipeArgumentError,
  invalidRecipeArgument,
  RecipeError,
  RecipeErrorCode,
} from '../internal-common/recipe-errors.js';
import { kazooPartition, type PartitionFunction } from './partition-function.js';

/** kazoo's `PartitionState`, in lower case. */
export const PartitionState = {
  /** The set is being divided; our share's locks are being taken. */
  ALLOCATING: 'allocating',
  /** Our share is held: every item of `items` is locked by us. */
  ACQUIRED: 'acquired',
  /** The members (or the connection) changed: call `releaseSet()` soon, then the set is divided again. */
  RELEASE: 'release',
  /** The session was lost, an error ended the partitioner, or `finish()` was called. Make a new one. */
  FAILURE: 'failure',
} as const;

/** One of {@link PartitionState}. */
export type PartitionState = (typeof PartitionState)[keyof typeof PartitionState];

/** Why a partitioner is in its failure state. */
export type PartitionFailureReason = 'session-lost' | 'finished' | 'error';

/** What a partitioner in its failure state says (`failure`, and the rejection of `waitForAcquire`). */
export class PartitionFailedError extends RecipeError {
  readonly reason: PartitionFailureReason;

  constructor(path: string, reason: PartitionFailureReason, cause?: unknown) {
    const why =
      reason === 'session-lost'
        ? 'its ZooKeeper session was lost'
        : reason === 'finished'
          ? 'finish() was called'
          : `of an error: ${cause instanceof Error ? cause.message : String(cause)}`;
    super(RecipeErrorCode.PARTITION_FAILED, `SetPartitioner at ${path} failed because ${why}`, { cause });
    this.name = 'PartitionFailedError';
    this.reason = reason;
  }
}

/** Options of a SetPartitioner (kazoo's arguments, times in milliseconds). */
export interface SetPartitionerOptions {
  /** The items to divide among the members (node names: no `/`). Every member must be given the same set. */
  items: Iterable<string>;
  /** Decides our share; default kazoo's, so Node and kazoo members agree. */
  partitionFunction?: PartitionFunction;
  /** Our member identifier, unique in the party; default `<hostname>-<pid>` as kazoo's. */
  identifier?: string;
  /** How long the members must stay unchanged before the set is divided; default 30 000 (kazoo's 30 s). */
  timeBoundaryMs?: number;
  /** How long one lock attempt waits before checking whether the members changed; default 1 000. */
  maxReactionTimeMs?: number;
}

/** Events of a SetPartitioner. */
export interface SetPartitionerEvents {
  /** The state changed (also to the same state again, as kazoo counts every change). */
  state: [state: PartitionState];
  /** A state listener threw. */
  error: [error: unknown];
}

function checkNodeName(name: unknown, what: string): string {
  return checkOneNodeName(name, what, invalidRecipeArgument);
}

function checkMs(value: unknown, what: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new InvalidRecipeArgumentError(what, `must be a finite number >= ${min}, got ${String(value)}`);
  }
  return value;
}

/** The checked options, with defaults filled in. */
export interface ResolvedPartitionerOptions {
  items: readonly string[];
  partitionFunction: PartitionFunction;
  identifier: string;
  timeBoundaryMs: number;
  maxReactionTimeMs: number;
}

/** Checks every option before anything is sent. */
export function resolvePartitionerOptions(options: SetPartitionerOptions): ResolvedPartitionerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidRecipeArgumentError('options', 'must be an object with items');
  }
  const { items } = options;
  if (items === null || typeof items !== 'object' || typeof items[Symbol.iterator] !== 'function') {
    throw new InvalidRecipeArgumentError('items', 'must be an iterable of strings');
  }
  const unique = [...new Set([...items].map((item, index) => checkNodeName(item, `items[${index}]`)))];
  const partitionFunction = options.partitionFunction ?? kazooPartition;
  if (typeof partitionFunction !== 'function') {
    throw new InvalidRecipeArgumentError('partitionFunction', 'must be a function');
  }
  return {
    items: unique,
    partitionFunction,
    identifier: checkNodeName(options.identifier ?? `${hostname()}-${process.pid}`, 'identifier'),
    timeBoundaryMs: checkMs(options.timeBoundaryMs, 'timeBoundaryMs', 30_000, 0),
    maxReactionTimeMs: checkMs(options.maxReactionTimeMs, 'maxReactionTimeMs', 1_000, 1),
  };
}
