// The latency cells for the official Java client, mirroring src/measure/open-loop.ts: getData at a fixed rate
// through the async API, request k due at start + k / rate and timed from then, not from when it went out, so
// that a driver which falls behind pays for every request it delayed (no coordinated omission). In one stretch
// (warm-up, then the window), or, in turns (BenchTurns), only in this contender's turns: each turn paces from
// its planned start, records the requests due after its ramp and before its end, then stops sending and lets
// the rest come back in the gap; the first cycle warms up, after a warm-up alongside the other contenders at
// this one's share of the rate (runOpenLoopCell in src/measure/open-loop.ts).
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.ZooKeeper;

final class BenchLatency {
  /** Samples kept per figure at most (3 arrays of longs: 48 MB of the JVM's 128). */
  private static final int MAX_SAMPLES = 2_000_000;

  private final ZooKeeper zk;
  private final String path;
  private final int rate;
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong outstanding = new AtomicLong();
  // the recorded requests (µs): latency from the due time, send lag behind it, latency from the actual send
  private final long[] latency;
  private final long[] lag;
  private final long[] fromSend;
  private final AtomicInteger recorded = new AtomicInteger();

  private BenchLatency(ZooKeeper zk, String path, int rate, double measuredSeconds) {
    this.zk = zk;
    this.path = path;
    this.rate = rate;
    int n = (int) Math.min(MAX_SAMPLES, (long) (rate * (measuredSeconds + 2)));
    latency = new long[n];
    lag = new long[n];
    fromSend = new long[n];
  }

  /** Runs the cell the arguments describe on `zk` (closed at the end) and returns its result JSON. */
  static String run(Map<String, String> args, ZooKeeper zk) throws Exception {
    int rate = Integer.parseInt(args.get("rate"));
    String path = args.get("data");
    long warmupMs = Long.parseLong(args.get("warmupMs"));
    long durationMs = Long.parseLong(args.get("durationMs"));
    try {
      if (!BenchTurns.named(args)) {
        BenchLatency cell = new BenchLatency(zk, path, rate, (warmupMs + durationMs) / 1000.0);
        long endNs = (warmupMs + durationMs) * 1_000_000L;
        long[] window = cell.pace(System.nanoTime(), warmupMs * 1_000_000L, endNs, true, rate);
        cell.drain();
        return cell.json(window, "");
      }
      long warmUpMs = Long.parseLong(args.getOrDefault("turnWarmupMs", "0"));
      if (warmUpMs > 0) {
        BenchLatency warm = new BenchLatency(zk, path, rate, 0);
        int share = Math.max(1, rate / Integer.parseInt(args.get("turnsOf")));
        warm.pace(System.nanoTime(), 0, warmUpMs * 1_000_000L, false, share);
        warm.drain();
      }
      BenchTurns turns = BenchTurns.awaitStart(args);
      BenchLatency cell = new BenchLatency(zk, path, rate, turns.cycles * turns.turnMs / 1000.0);
      return cell.inTurns(turns);
    } finally {
      zk.close();
    }
  }

  /** Every turn of this contender, the measured ones' windows added up (Java loses no turns to leave out). */
  private String inTurns(BenchTurns turns) throws Exception {
    long[] total = new long[4];
    long drainMs = 0;
    StringBuilder rates = new StringBuilder();
    for (int cycle = 0; cycle <= turns.cycles; cycle++) {
      long start = turns.startOf(cycle);
      long startNs = System.nanoTime() + (start - System.currentTimeMillis()) * 1_000_000L;
      BenchTurns.sleepUntil(start);
      long[] window = pace(startNs, turns.rampMs * 1_000_000L, turns.turnMs * 1_000_000L, cycle > 0, rate);
      long endedAt = System.currentTimeMillis();
      drain();
      if (cycle == 0) continue;
      for (int i = 0; i < 4; i++) total[i] += window[i];
      drainMs = Math.max(drainMs, System.currentTimeMillis() - endedAt);
      if (rates.length() > 0) rates.append(',');
      rates.append(String.format(Locale.ROOT, "%.1f", window[3] > 0 ? window[0] * 1e9 / window[3] : 0.0));
    }
    return json(total, String.format(Locale.ROOT, ",\"drainMs\":%d,\"turnRates\":[%s]", drainMs, rates));
  }

  /**
   * Sends getData at `rate` per second from `startNs` (System.nanoTime()) until `endNs` after it, none due later;
   * with `record`, the requests due from `recordFromNs` on are recorded. The window opens at the first tick
   * past `recordFromNs` and closes after the last: returns its {ops, errors, cpu ns, elapsed ns}.
   */
  private long[] pace(long startNs, long recordFromNs, long endNs, boolean record, int rate) {
    long sent = 0;
    long[] open = null;
    while (true) {
      long now = System.nanoTime() - startNs;
      if (open == null && now >= recordFromNs) open = counters();
      long due = Math.min(now, endNs) * rate / 1_000_000_000L;
      while (sent < due) {
        sent++;
        long dueAfter = sent * 1_000_000_000L / rate;
        send(startNs + dueAfter, record && dueAfter >= recordFromNs && dueAfter < endNs);
      }
      if (now >= endNs) break;
      LockSupport.parkNanos(1_000_000L);
    }
    long[] close = counters();
    if (open == null) open = close;
    return new long[] {close[0] - open[0], close[1] - open[1], close[2] - open[2], close[3] - open[3]};
  }

  private long[] counters() {
    return new long[] {completed.get(), errors.get(), BenchDriver.cpuNanos(), System.nanoTime()};
  }

  private void send(long dueNs, boolean record) {
    long sentNs = System.nanoTime();
    outstanding.incrementAndGet();
    zk.getData(path, false, (rc, p, c, d, s) -> {
      long doneNs = System.nanoTime();
      if (rc == 0) completed.incrementAndGet();
      else errors.incrementAndGet();
      if (record && rc == 0) {
        int i = recorded.getAndIncrement();
        if (i < latency.length) {
          latency[i] = Math.max(1, (doneNs - dueNs) / 1000);
          lag[i] = Math.max(1, (sentNs - dueNs) / 1000);
          fromSend[i] = Math.max(1, (doneNs - sentNs) / 1000);
        }
      }
      // last: the main thread reads the samples once nothing is outstanding
      outstanding.decrementAndGet();
    }, null);
  }

  private void drain() throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10000;
    while (outstanding.get() > 0 && System.currentTimeMillis() < deadline) Thread.sleep(2);
  }

  /** The result line: the window's figures, the latency percentiles, and the note of openLoopNote. */
  private String json(long[] window, String extra) {
    int n = Math.min(recorded.get(), latency.length);
    long[] lagSorted = sorted(lag, n);
    long[] sentSorted = sorted(fromSend, n);
    String note = String.format(Locale.ROOT,
        "%d req/s; send lag behind the intended time p50 %d \\u00b5s, p99 %d \\u00b5s; "
            + "latency from the actual send p50 %d \\u00b5s, p99 %d \\u00b5s",
        rate, pct(lagSorted, 50), pct(lagSorted, 99), pct(sentSorted, 50), pct(sentSorted, 99));
    return String.format(Locale.ROOT,
        "{\"ok\":true,\"ops\":%d,\"errors\":%d,\"elapsedMs\":%.3f,\"cpuUs\":%d%s%s,\"note\":\"%s\"}",
        window[0], window[1], window[3] / 1e6, window[2] / 1000, extra, BenchDriver.latencyJson(latency, n),
        note);
  }

  /** p of the sorted samples, 0 when there are none */
  private static long pct(long[] sorted, double p) {
    return sorted.length == 0 ? 0 : BenchDriver.pct(sorted, p);
  }

  private static long[] sorted(long[] samples, int n) {
    long[] s = Arrays.copyOf(samples, n);
    Arrays.sort(s);
    return s;
  }
}
