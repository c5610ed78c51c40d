/** The client surface of the counters: the recipes' common {@link RecipeClient} plus `setData`. */
import type { ClientApi, Stat } from '@zkwire/zk-wire-client';
import type { RecipeClient } from '../internal-common/zk-client.js';

/** A Stat, with the `mzxid` SharedValue uses to ignore answers that arrive out of order. */
export type ValueStat = Stat;

/** What the counters need from a ZooKeeper client. */
export type ValueClient = RecipeClient & Pick<ClientApi, 'setData'>;
