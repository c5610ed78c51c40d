// curator-x-async's ModeledFramework for the modeled scenarios: the same loops as
// apps/bench/src/scenarios/modeled.ts, with Jackson's JacksonModelSerializer.
//   modeledRead: MODELS models at <base>/models/{id}, written by the framework in transactions of BATCH creates
//   before the clock starts; a CachedModeledFramework over them; one op = withPath(path.resolved(id)).read() of
//   the next model, each read checked to hold its own id.
//   modeledUpdate: one model, two sessions, each looping versioned read -> count + 1 -> versioned update, a
//   BadVersion counted as a retry; one op = an update that went through. At the end the model's count must be
//   the number of updates that went through (none lost).
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.modeled.JacksonModelSerializer;
import org.apache.curator.x.async.modeled.ModelSpec;
import org.apache.curator.x.async.modeled.ModeledFramework;
import org.apache.curator.x.async.modeled.ZPath;
import org.apache.curator.x.async.modeled.cached.CachedModeledFramework;
import org.apache.curator.x.async.modeled.cached.ModeledCacheListener;
import org.apache.curator.x.async.modeled.versioned.Versioned;
import org.apache.curator.x.async.modeled.versioned.VersionedModeledFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

final class CuratorModeled {
  /** MODEL_COUNT and TRANSACTION_SIZE in src/scenarios/modeled.ts */
  private static final int MODELS = 10_000;
  private static final int BATCH = 1_000;
  private static final String OWNER = "zkwire-bench";

  private CuratorModeled() {}

  /** The model of both scenarios, as Jackson maps a plain object (fields in declared order). */
  public static final class BenchModel {
    public String id;
    public String owner;
    public long count;

    public BenchModel() {}

    BenchModel(String id, long count) {
      this.id = id;
      this.owner = OWNER;
      this.count = count;
    }
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** m00000, m00001, ... as modelIds() in src/scenarios/modeled.ts */
  static String[] modelIds(int count) {
    String[] ids = new String[count];
    for (int i = 0; i < count; i++) ids[i] = String.format("m%05d", i);
    return ids;
  }

  private static ModeledFramework<BenchModel> framework(CuratorFramework c, ZPath path) {
    ModelSpec<BenchModel> spec = ModelSpec.builder(path, JacksonModelSerializer.build(BenchModel.class)).build();
    return ModeledFramework.wrap(AsyncCuratorFramework.wrap(c), spec);
  }

  private static <T> T await(java.util.concurrent.CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /** Runs one op of `ops` per id, BATCH to a transaction. */
  private static void inBatches(ModeledFramework<BenchModel> models, String[] ids, java.util.function.Function<String, CuratorOp> op)
      throws Exception {
    for (int from = 0; from < ids.length; from += BATCH) {
      List<CuratorOp> ops = new ArrayList<>();
      for (int i = from; i < Math.min(ids.length, from + BATCH); i++) ops.add(op.apply(ids[i]));
      await(models.inTransaction(ops));
    }
  }

  static String modeledRead(CuratorFramework c, Map<String, String> args) throws Exception {
    String base = args.get("base");
    long warmupMs = Long.parseLong(args.get("warmupMs"));
    long durationMs = Long.parseLong(args.get("durationMs"));
    ZPath path = ZPath.parseWithIds(base + "/models/{id}");
    ModeledFramework<BenchModel> models = framework(c, path);
    String[] ids = modelIds(MODELS);
    // the first set makes the parents (as containers, the spec's default); the rest go in transactions
    await(models.withPath(path.resolved(ids[0])).set(new BenchModel(ids[0], 0)));
    String[] rest = Arrays.copyOfRange(ids, 1, ids.length);
    inBatches(models, rest, (id) -> models.withPath(path.resolved(id)).createOp(new BenchModel(id, 0)));

    CachedModeledFramework<BenchModel> cached = models.cached();
    CountDownLatch initialized = new CountDownLatch(1);
    cached.listenable().addListener(new ModeledCacheListener<BenchModel>() {
      @Override
      public void accept(ModeledCacheListener.Type type, ZPath p, Stat stat, BenchModel model) {}

      @Override
      public void initialized() {
        initialized.countDown();
      }
    });
    cached.start();
    try {
      if (!initialized.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("modeled: no initial load in 60 s");
      int loaded = cached.cache().currentChildren(path.parent()).size();
      if (loaded != MODELS) throw new IllegalStateException("modeled: the cache holds " + loaded + " models, expected " + MODELS);

      long start = System.nanoTime();
      long open = start + warmupMs * 1_000_000L;
      long end = open + durationMs * 1_000_000L;
      long reads = 0, wrong = 0, reads0 = 0, cpu0 = 0, t0 = 0;
      boolean measuring = false;
      for (long now = start; now < end; now = System.nanoTime()) {
        if (!measuring && now >= open) {
          measuring = true;
          reads0 = reads;
          cpu0 = cpuNanos();
          t0 = now;
        }
        String id = ids[(int) (reads % MODELS)];
        BenchModel model = cached.withPath(path.resolved(id)).read().toCompletableFuture().get();
        if (!id.equals(model.id)) wrong++;
        reads++;
      }
      long cpu = cpuNanos() - cpu0;
      long elapsed = System.nanoTime() - t0;
      if (wrong > 0) throw new IllegalStateException("modeled: " + wrong + " cached reads returned another id's model");
      return String.format(Locale.ROOT,
          "{\"ok\":true,\"ops\":%d,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d,"
              + "\"note\":\"one op = a cached read of one of %d models (CachedModeledFramework.withPath(resolved).read()); every read held its own id\"}",
          reads - reads0, elapsed / 1e6, cpu / 1000, MODELS);
    } finally {
      cached.close();
      inBatches(models, ids, (id) -> models.withPath(path.resolved(id)).deleteOp());
    }
  }

  /** modeledUpdate's per-update times (µs, first read to the write that went through), while measuring */
  private static volatile boolean measuring = false;
  private static volatile boolean stopped = false;
  private static final long[] samples = new long[1_000_000];
  private static int sampleCount = 0;

  private static synchronized void record(long startNs) {
    if (measuring && sampleCount < samples.length) samples[sampleCount++] = Math.max(1, (System.nanoTime() - startNs) / 1000);
  }

  private static long pct(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static synchronized String latencyJson() {
    int n = sampleCount;
    if (n == 0) return "";
    long[] s = Arrays.copyOf(samples, n);
    Arrays.sort(s);
    return String.format(Locale.ROOT, ",\"latency\":{\"count\":%d,\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d}",
        n, pct(s, 50), pct(s, 90), pct(s, 99), pct(s, 99.9), s[n - 1]);
  }

  static String modeledUpdate(CuratorFramework c1, CuratorFramework c2, Map<String, String> args) throws Exception {
    String base = args.get("base");
    long warmupMs = Long.parseLong(args.get("warmupMs"));
    long durationMs = Long.parseLong(args.get("durationMs"));
    ZPath path = ZPath.parse(base + "/counter");
    await(framework(c1, path).set(new BenchModel("counter", 0)));
    AtomicLong updates = new AtomicLong();
    AtomicLong retries = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> sessions = new ArrayList<>();
    for (CuratorFramework c : new CuratorFramework[] {c1, c2}) {
      VersionedModeledFramework<BenchModel> counter = framework(c, path).versioned();
      Thread t = new Thread(() -> {
        try {
          while (!stopped) {
            long began = System.nanoTime();
            while (true) {
              Versioned<BenchModel> read = await(counter.read());
              BenchModel next = new BenchModel(read.model().id, read.model().count + 1);
              try {
                await(counter.update(Versioned.from(next, read.version())));
                break;
              } catch (ExecutionException e) {
                if (!(e.getCause() instanceof KeeperException.BadVersionException)) throw e;
                retries.incrementAndGet();
              }
            }
            updates.incrementAndGet();
            record(began);
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      });
      t.setDaemon(true);
      sessions.add(t);
      t.start();
    }
    Thread.sleep(warmupMs);
    long updates0 = updates.get();
    long retries0 = retries.get();
    long cpu0 = cpuNanos();
    long t0 = System.nanoTime();
    measuring = true;
    Thread.sleep(durationMs);
    measuring = false;
    long done = updates.get() - updates0;
    long retried = retries.get() - retries0;
    long cpu = cpuNanos() - cpu0;
    long elapsed = System.nanoTime() - t0;
    stopped = true;
    for (Thread t : sessions) t.join(10_000);
    if (failure.get() != null) throw new IllegalStateException("modeled: a session failed: " + failure.get());
    long count = await(framework(c1, path).read()).count;
    await(framework(c1, path).delete());
    if (count != updates.get())
      throw new IllegalStateException("modeled: the count is " + count + " after " + updates.get() + " updates went through");
    return String.format(Locale.ROOT,
        "{\"ok\":true,\"ops\":%d,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d%s,"
            + "\"note\":\"one op = a versioned read-modify-write that went through, two sessions contending (percentiles: first read to its write); retries per update %.2f (%d BadVersion in the window); final count %d = every update\"}",
        done, elapsed / 1e6, cpu / 1000, latencyJson(), done == 0 ? 0.0 : (double) retried / done, retried, count);
  }
}
