// cacheScale with Curator's CuratorCache: the same steps and figures as apps/bench/src/scenarios/cache-scale.ts.
// The initial load of the case's tree (time, CPU, heap and RSS per node after full GCs), then two writer
// sessions setting random nodes of the tree, PIPELINE setData in flight each, for the window: events per
// second, the lag from each write's reply (its mzxid committed) to its event (0 when the event came first),
// the zxid lag, the time from send to event (the send time is the first 8 bytes of the data), and whether the
// lag grows through the window (the rule of src/scale/lag.ts).
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.ZooKeeper;

final class CuratorScale {
  private static final int PIPELINE = 32;
  private static final int FAN_OUT = 100;
  /** growth below this many µs between the first and last third is not called growth (src/scale/lag.ts) */
  private static final double MIN_GROWTH_US = 1_000;

  private CuratorScale() {}

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }



  private static double epochMs() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
  }

  /** The tree's paths, breadth first, as src/scale/tree.ts makes them. */
  static String[] treePaths(String root, int size) {
    String[] paths = new String[size];
    paths[0] = root;
    for (int i = 1; i < size; i++) paths[i] = paths[(i - 1) / FAN_OUT] + "/n" + ((i - 1) % FAN_OUT);
    return paths;
  }

  private static long pct(double[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return Math.round(sorted[Math.max(0, Math.min(sorted.length - 1, i))]);
  }

  private static double median(List<Double> values) {
    double[] s = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int mid = s.length / 2;
    return s.length % 2 == 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  }

  static String cacheScale(CuratorFramework c, CuratorFramework w1, CuratorFramework w2, Map<String, String> args)
      throws Exception {
    String tree = args.get("tree");
    int size = Integer.parseInt(args.get("inFlight"));
    int dataSize = Integer.parseInt(args.get("dataSize"));
    long warmupMs = Long.parseLong(args.get("warmupMs"));
    long durationMs = Long.parseLong(args.get("durationMs"));

    c.getChildren().forPath(tree); // the client's own start-up is not the cache's: one read first (as ours)
    long heap0 = ScaleMemory.heapUsed();
    long rss0 = ScaleMemory.rss();
    long cpu0 = cpuNanos();
    long t0 = System.nanoTime();
    CountDownLatch ready = new CountDownLatch(1);
    CuratorCache cache = CuratorCache.build(c, tree);
    cache.listenable().addListener(CuratorCacheListener.builder().forInitialized(ready::countDown).build());
    cache.start();
    if (!ready.await(600, TimeUnit.SECONDS)) throw new IllegalStateException("cache: no initial load in 600 s");
    double loadMs = (System.nanoTime() - t0) / 1e6;
    double loadCpuMs = (cpuNanos() - cpu0) / 1e6;
    if (cache.size() != size) throw new IllegalStateException("cache: loaded " + cache.size() + " nodes, expected " + size);
    double heapPerNode = (double) (ScaleMemory.heapUsed() - heap0) / size;
    double rssPerNode = (double) (ScaleMemory.rss() - rss0) / size;

    String[] paths = treePaths(tree, size);
    AtomicLong committedZxid = new AtomicLong();
    AtomicLong newestEventZxid = new AtomicLong();
    AtomicLong writes = new AtomicLong();
    AtomicLong events = new AtomicLong();
    Map<Long, Double> committedAt = new ConcurrentHashMap<>();
    List<double[]> lags = new ArrayList<>(); // {atMs, lagUs}
    List<Double> zxidLags = new ArrayList<>();
    List<Double> sendToEvent = new ArrayList<>();
    cache.listenable().addListener(CuratorCacheListener.builder().forChanges((oldNode, node) -> {
      long zxid = node.getStat().getMzxid();
      newestEventZxid.accumulateAndGet(zxid, Math::max);
      byte[] data = node.getData();
      if (!measuring || data == null || data.length < 8) return;
      double now = epochMs();
      double sentAt = ByteBuffer.wrap(data, 0, 8).getDouble();
      Double committed = committedAt.remove(zxid);
      events.incrementAndGet();
      synchronized (lags) {
        lags.add(new double[] {now - windowStart, committed == null ? 0 : (now - committed) * 1000});
        zxidLags.add((double) Math.max(0, committedZxid.get() - zxid));
        sendToEvent.add((now - sentAt) * 1000);
      }
    }).build());

    writing = true;
    List<Thread> writers = new ArrayList<>();
    for (CuratorFramework w : new CuratorFramework[] {w1, w2}) {
      ZooKeeper zk = w.getZookeeperClient().getZooKeeper();
      Semaphore inFlight = new Semaphore(PIPELINE);
      Thread t = new Thread(() -> {
        try {
          while (writing) {
            inFlight.acquire();
            byte[] data = new byte[dataSize];
            ByteBuffer.wrap(data).putDouble(epochMs());
            String path = paths[ThreadLocalRandom.current().nextInt(paths.length)];
            zk.setData(path, data, -1, (rc, p, ctx, stat) -> {
              inFlight.release();
              if (stat == null) return;
              long zxid = stat.getMzxid();
              committedZxid.accumulateAndGet(zxid, Math::max);
              if (measuring) {
                writes.incrementAndGet();
                if (zxid > newestEventZxid.get()) committedAt.put(zxid, epochMs());
              }
            }, null);
          }
          inFlight.acquire(PIPELINE); // every write answered
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      t.setDaemon(true);
      writers.add(t);
      t.start();
    }
    Thread.sleep(warmupMs);
    windowStart = epochMs();
    measuring = true;
    long cpu1 = cpuNanos();
    Thread.sleep(durationMs);
    double windowMs = epochMs() - windowStart;
    double steadyCpuUs = (cpuNanos() - cpu1) / 1e3;
    long absorbed = events.get();
    long written = writes.get();
    writing = false;
    for (Thread t : writers) t.join(30_000);
    long lastZxid = committedZxid.get();
    long catchUpEnd = System.nanoTime() + 30_000_000_000L;
    while (newestEventZxid.get() < lastZxid && System.nanoTime() < catchUpEnd) Thread.sleep(20);
    boolean caughtUp = newestEventZxid.get() >= lastZxid;
    measuring = false;
    cache.close();

    double[] lagSorted;
    double[] zxidSorted;
    double[] sentSorted;
    List<double[]> byTime;
    synchronized (lags) {
      lagSorted = lags.stream().mapToDouble(l -> l[1]).sorted().toArray();
      zxidSorted = zxidLags.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      sentSorted = sendToEvent.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      byTime = new ArrayList<>(lags);
    }
    StringBuilder trend = new StringBuilder();
    byTime.sort((a, b) -> Double.compare(a[0], b[0]));
    if (byTime.size() >= 3) {
      double start = byTime.get(0)[0];
      double span = byTime.get(byTime.size() - 1)[0] - start;
      List<Double> first = new ArrayList<>();
      List<Double> last = new ArrayList<>();
      double meanT = 0, meanL = 0;
      for (double[] s : byTime) {
        double at = span > 0 ? (s[0] - start) / span : 0;
        if (at < 1.0 / 3) first.add(s[1]);
        else if (at >= 2.0 / 3) last.add(s[1]);
        meanT += s[0];
        meanL += s[1];
      }
      meanT /= byTime.size();
      meanL /= byTime.size();
      double cov = 0, var = 0;
      for (double[] s : byTime) {
        cov += (s[0] - meanT) * (s[1] - meanL);
        var += (s[0] - meanT) * (s[0] - meanT);
      }
      if (span > 0 && !first.isEmpty() && !last.isEmpty()) {
        double f = median(first);
        double l = median(last);
        boolean grows = l > 2 * f && l - f >= MIN_GROWTH_US;
        trend.append(String.format(",\"lagFirstThirdUs\":%.1f,\"lagLastThirdUs\":%.1f,\"lagSlopeUsPerS\":%.1f,\"lagGrows\":%d",
            f, l, var > 0 ? cov / var * 1000 : 0, grows ? 1 : 0));
      }
    }
    int n = lagSorted.length;
    String latency = String.format("{\"count\":%d,\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d}",
        n, pct(lagSorted, 50), pct(lagSorted, 90), pct(lagSorted, 99), pct(lagSorted, 99.9), pct(lagSorted, 100));
    String figures = String.format("{\"loadMs\":%.3f,\"loadCpuMs\":%.3f,\"heapPerNode\":%.1f,\"rssPerNode\":%.1f,"
        + "\"writesPerSec\":%.1f,\"eventsPerSec\":%.1f,\"steadyCpuUsPerEvent\":%.2f,\"lagP50Us\":%d,\"lagP99Us\":%d,"
        + "\"lagMaxUs\":%d,\"zxidLagP99\":%d,\"sendToEventP50Us\":%d,\"sendToEventP99Us\":%d%s}",
        loadMs, loadCpuMs, heapPerNode, rssPerNode, written * 1000 / windowMs, absorbed * 1000 / windowMs,
        absorbed > 0 ? steadyCpuUs / absorbed : 0, pct(lagSorted, 50), pct(lagSorted, 99), pct(lagSorted, 100),
        pct(zxidSorted, 99), pct(sentSorted, 50), pct(sentSorted, 99), trend);
    String note = caughtUp ? "" : ",\"note\":\"the cache had not delivered the last write 30 s after the window\"";
    return String.format("{\"ok\":true,\"ops\":1,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d,\"latency\":%s,"
        + "\"scale\":{\"size\":%d,\"timeMs\":%.3f,\"figures\":%s}%s}",
        loadMs, Math.round(loadCpuMs * 1000), latency, size, loadMs, figures, note);
  }

  private static volatile boolean writing;
  private static volatile boolean measuring;
  private static volatile double windowStart;
}
