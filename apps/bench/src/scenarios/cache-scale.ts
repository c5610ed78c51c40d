/**
 * cacheScale with our CuratorCache (CuratorBench.java does the same with Curator's): the initial load of the
 * tree the orchestrator made for the case (`inFlight` nodes), its time, CPU, and heap and RSS per node after
 * full GCs; then two writer sessions of this process set random nodes of the tree, PIPELINE setData in flight
 * each, for the window (`durationMs`). A `changed` event's lag is the time from the reply to the write of its
 * mzxid (the change committed) to the event, 0 when the event came first; its zxid lag is how many
 * transactions the writers had committed past that mzxid when it arrived. Each write also carries its send
 * time (epoch ms, a float64 at the start of its data), for the time from send to event, which includes the
 * write's wait behind the others in flight. Figures: events the cache absorbed per second, the lags'
 * percentiles, and whether the lag grows through the window (scale/lag.ts).
 */
import { loadOurs } from '../contenders/ours.js';
import { message, sleep } from '../measure/window.js';
import { type LagSample, lagTrend } from '../scale/lag.js';
import { cpuSince, epochMs, memoryNow, percentiles } from '../scale/sample.js';
import { scaleTreePaths } from '../scale/tree.js';
import type { CellResult, CellSpec } from '../types.js';

/** setData in flight per writer session. */
const PIPELINE = 32;
const WRITERS = 2;
/** How long the load of the largest tree may take. */
const LOAD_TIMEOUT_MS = 600_000;
/** After the window, how long the cache may take to deliver the changes still on their way. */
const CATCH_UP_MS = 30_000;

export async function runCacheScale(spec: CellSpec): Promise<CellResult> {
  const tree = spec.scaleTree;
  if (!tree) return { ok: false, error: 'the orchestrator made no tree for this case' };
  const size = spec.inFlight;
  const m = await loadOurs();
  const client = await m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 });
  const writers: Awaited<ReturnType<typeof m.client.connect>>[] = [];
  try {
    // the client's own start-up (its first frames, its buffers) is not the cache's: one read first
    await client.getChildren(tree);
    const before = memoryNow();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const cache = new m.recipes.CuratorCache(client, tree);
    await cache.start();
    if (!(await cache.awaitInitialized({ timeoutMs: LOAD_TIMEOUT_MS })))
      return { ok: false, error: `no initial load in ${LOAD_TIMEOUT_MS} ms` };
    const loadMs = performance.now() - t0;
    const loadCpuUs = cpuSince(cpu0);
    if (cache.size !== size) return { ok: false, error: `loaded ${cache.size} nodes, expected ${size}` };
    const loaded = memoryNow();

    for (let w = 0; w < WRITERS; w++)
      writers.push(await m.client.connect({ connectString: spec.connectString, sessionTimeoutMs: 30_000 }));
    const paths = scaleTreePaths(tree, size);
    let committedZxid = 0n;
    let writes = 0;
    let events = 0;
    let measuring = false;
    let windowStart = 0;
    const lags: LagSample[] = [];
    const zxidLags: number[] = [];
    const sendToEvent: number[] = [];
    /** epoch ms of each write's reply, by its zxid, until its event takes it */
    const committedAt = new Map<bigint, number>();
    let newestEventZxid = 0n;
    cache.on('changed', (_old, node) => {
      const eventZxid = BigInt(node.stat.mzxid);
      if (eventZxid > newestEventZxid) newestEventZxid = eventZxid;
      if (!measuring || !node.data || node.data.byteLength < 8) return;
      const sentAt = Buffer.from(node.data.buffer, node.data.byteOffset, 8).readDoubleBE(0);
      const now = epochMs();
      events++;
      const committed = committedAt.get(eventZxid);
      committedAt.delete(eventZxid);
      lags.push({ atMs: now - windowStart, lagUs: committed === undefined ? 0 : (now - committed) * 1000 });
      sendToEvent.push((now - sentAt) * 1000);
      zxidLags.push(Math.max(0, Number(committedZxid - eventZxid)));
    });
    let writing = true;
    const writeLoop = async (writer: (typeof writers)[number]) => {
      while (writing) {
        const data = Buffer.alloc(spec.dataSize, 0x62);
        data.writeDoubleBE(epochMs(), 0);
        const path = paths[Math.floor(Math.random() * paths.length)] as string;
        const stat = await writer.setData(path, data);
        const zxid = BigInt(stat.mzxid);
        if (zxid > committedZxid) committedZxid = zxid;
        // an event that came before this reply found nothing here: it was not late
        if (measuring && zxid > newestEventZxid) committedAt.set(zxid, epochMs());
        if (measuring) writes++;
      }
    };
    const loops = writers.flatMap((w) => Array.from({ length: PIPELINE }, () => writeLoop(w)));
    await sleep(spec.warmupMs);
    windowStart = epochMs();
    measuring = true;
    const cpu1 = process.cpuUsage();
    await sleep(spec.durationMs);
    const windowMs = epochMs() - windowStart;
    const steadyCpuUs = cpuSince(cpu1);
    const absorbed = events;
    writing = false;
    await Promise.all(loops);
    // the changes still on their way count for the lag, not for the rate: wait for the last write's event
    const lastZxid = committedZxid;
    const catchUpEnd = performance.now() + CATCH_UP_MS;
    while (newestEventZxid < lastZxid && performance.now() < catchUpEnd) await sleep(20);
    const caughtUp = newestEventZxid >= lastZxid;
    measuring = false;
    await cache.close();
    const trend = lagTrend(lags);
    const lag = percentiles(lags.map((l) => l.lagUs));
    const zxid = percentiles(zxidLags);
    const sent = percentiles(sendToEvent);
    const figures: Record<string, number> = {
      loadMs,
      loadCpuMs: loadCpuUs / 1000,
      heapPerNode: (loaded.heap - before.heap) / size,
      rssPerNode: (loaded.rss - before.rss) / size,
      writesPerSec: (writes * 1000) / windowMs,
      eventsPerSec: (absorbed * 1000) / windowMs,
      steadyCpuUsPerEvent: absorbed > 0 ? steadyCpuUs / absorbed : 0,
      lagP50Us: lag.p50,
      lagP99Us: lag.p99,
      lagMaxUs: lag.max,
      zxidLagP99: zxid.p99,
      sendToEventP50Us: sent.p50,
      sendToEventP99Us: sent.p99,
      ...(trend && {
        lagFirstThirdUs: trend.firstThirdP50Us,
        lagLastThirdUs: trend.lastThirdP50Us,
        lagSlopeUsPerS: trend.slopeUsPerS,
        lagGrows: trend.grows ? 1 : 0,
      }),
    };
    return {
      ok: true,
      ops: 1,
      errors: 0,
      elapsedMs: loadMs,
      cpuUs: loadCpuUs,
      latency: lag,
      scale: { size, timeMs: loadMs, figures },
      ...(caughtUp ? {} : { note: 'the cache had not delivered the last write 30 s after the window' }),
    };
  } catch (error) {
    return { ok: false, error: message(error) };
  } finally {
    for (const w of writers) await w.close().catch(() => {});
    await client.close().catch(() => {});
  }
}
