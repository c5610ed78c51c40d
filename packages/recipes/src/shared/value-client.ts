/**
 * The client surface of the counters: the recipes' common {@link RecipeClient} plus `setData`, and the
 * `mzxid` of a Stat (SharedValue uses it to ignore answers that arrive out of order).
 */
import type {
  RecipeCallOptions,
  RecipeClient,
  RecipeStat,
  RecipeWatcher,
} from '../internal-common/zk-client.js';

/** A Stat with the zxid of its last modification. */
export interface ValueStat extends RecipeStat {
  readonly mzxid: bigint;
}

/** What the counters need from a ZooKeeper client; `@zkwire/zk-wire-client`'s client satisfies it. */
export interface ValueClient extends RecipeClient {
  getData(
    path: string,
    options?: RecipeCallOptions & { watch?: RecipeWatcher },
  ): Promise<{ data: Uint8Array; stat: ValueStat }>;
  setData(
    path: string,
    data: Uint8Array | string | null,
    options?: RecipeCallOptions & { version?: number },
  ): Promise<ValueStat>;
}
