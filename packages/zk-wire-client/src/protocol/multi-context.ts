/** A multi's request as its reply's decoder needs it while the multi is in flight (MultiContext, multi.ts). */
import type { CheckedMulti, MultiContext, MultiOpArgs } from './multi.js';

type OpType = MultiOpArgs['type'];

/**
 * The decoder's context of a multi: its paths (the checked multi's own array, new for each multi) and its
 * types: a shared frozen array when every op has one type (ten setData, say), a copy of the multi's own types
 * otherwise (the checked multi is reused by the next call). What a multi keeps in flight is copied by
 * every young-generation GC it lives through; its own types array was ~120 of the ~840 bytes a 10-op multi
 * kept (a 10-slot array is 128 bytes without pointer compression, Node's default).
 */
export function multiContext(checked: CheckedMulti): MultiContext {
  return { types: typesOf(checked.types, checked.paths.length), paths: checked.paths };
}

/** Longest multi whose uniform types array is shared; longer ones keep their own. */
const SHARED_TYPES_UP_TO = 64;
const sharedTypes: Record<OpType, (readonly OpType[])[]> = { create: [], delete: [], check: [], setData: [] };

/** The first `count` of `types`: the shared array equal to them when they are all one type, else a copy. */
function typesOf(types: readonly OpType[], count: number): readonly OpType[] {
  if (count === 0 || count > SHARED_TYPES_UP_TO) return types.slice(0, count);
  const first = types[0]!;
  for (let i = 1; i < count; i++) if (types[i] !== first) return types.slice(0, count);
  return (sharedTypes[first][count] ??= Object.freeze(types.slice(0, count)));
}
