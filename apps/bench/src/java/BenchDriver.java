// The official Java client as a bench contender (the jars of the run's ZooKeeper version). Compiled at bench time with
// javac; run once per cell in its own JVM so that its CPU time is its own. It mirrors the Node runners:
// N operations in flight through the asynchronous API, each callback issuing the next (in turns with the other
// contenders: BenchTurns); a paced open loop for latency (BenchLatency); back-to-back sessions; watch round
// trips. Prints one line "@@result {json}" like the Node workers.
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

public final class BenchDriver {
  private static Map<String, String> args;
  private static final AtomicLong completed = new AtomicLong();
  private static final AtomicLong errors = new AtomicLong();
  private static final AtomicLong outstanding = new AtomicLong();
  private static volatile boolean stopped = false;

  private static String arg(String name) {
    String v = args.get(name);
    if (v == null) throw new IllegalArgumentException("missing argument " + name);
    return v;
  }

  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static ZooKeeper connect() throws Exception {
    return connect(30000);
  }

  private static ZooKeeper connect(int sessionTimeoutMs) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(arg("connect"), sessionTimeoutMs, (WatchedEvent e) -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
    });
    if (!connected.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("connect: no session in 10 s");
    return zk;
  }

  /** window results */
  private static long ops0, errors0, cpu0, t0;

  private static void open() {
    ops0 = completed.get();
    errors0 = errors.get();
    cpu0 = cpuNanos();
    t0 = System.nanoTime();
  }

  private static String close(String extra) {
    long elapsed = System.nanoTime() - t0;
    long cpu = cpuNanos() - cpu0;
    return String.format("{\"ok\":true,\"ops\":%d,\"errors\":%d,\"elapsedMs\":%.3f,\"cpuUs\":%d%s}",
        completed.get() - ops0, errors.get() - errors0, elapsed / 1e6, cpu / 1000, extra);
  }

  static String latencyJson(long[] samplesUs, int n) {
    if (n == 0) return ",\"latency\":{\"count\":0,\"p50\":0,\"p90\":0,\"p99\":0,\"p999\":0,\"max\":0}";
    long[] s = Arrays.copyOf(samplesUs, n);
    Arrays.sort(s);
    return String.format(",\"latency\":{\"count\":%d,\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d}",
        n, pct(s, 50), pct(s, 90), pct(s, 99), pct(s, 99.9), s[n - 1]);
  }

  static long pct(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static void drain() throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10000;
    while (outstanding.get() > 0 && System.currentTimeMillis() < deadline) Thread.sleep(5);
  }

  interface Issue {
    void issue(int slot, Runnable done);
  }

  private static void next(Issue issue, int slot) {
    outstanding.incrementAndGet();
    issue.issue(slot, () -> {
      outstanding.decrementAndGet();
      if (!stopped) next(issue, slot);
    });
  }

  private static void ok(int rc, Runnable done) {
    if (rc == 0) completed.incrementAndGet();
    else errors.incrementAndGet();
    done.run();
  }

  private static String throughput() throws Exception {
    ZooKeeper zk = connect();
    String op = arg("op");
    int inFlight = Integer.parseInt(arg("inFlight"));
    byte[] data = new byte[Integer.parseInt(arg("dataSize"))];
    Arrays.fill(data, (byte) 0x61);
    String dataPath = arg("data");
    Issue issue;
    switch (op) {
      case "getData":
        issue = (slot, done) -> zk.getData(dataPath, false, (rc, p, c, d, s) -> ok(rc, done), null);
        break;
      case "exists":
        issue = (slot, done) -> zk.exists(dataPath, false, (rc, p, c, s) -> ok(rc, done), null);
        break;
      case "setData":
        issue = (slot, done) -> zk.setData(dataPath, data, -1, (rc, p, c, s) -> ok(rc, done), null);
        break;
      case "getChildren": {
        String children = arg("children");
        issue = (slot, done) -> zk.getChildren(children, false, (AsyncCallback.ChildrenCallback) (rc, p, c, l) -> ok(rc, done), null);
        break;
      }
      case "createDelete": {
        String[] paths = new String[inFlight];
        for (int i = 0; i < inFlight; i++) paths[i] = arg("scratch") + "/" + arg("cellId") + "-" + i;
        issue = (slot, done) -> zk.create(paths[slot], data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
            (AsyncCallback.StringCallback) (rc, p, c, name) -> {
              if (rc != 0) {
                ok(rc, done);
                return;
              }
              zk.delete(paths[slot], -1, (rc2, p2, c2) -> ok(rc2, done), null);
            }, null);
        break;
      }
      case "multi": {
        List<Op> ops = new ArrayList<>();
        for (String path : arg("multi").split(",")) ops.add(Op.setData(path, data, -1));
        issue = (slot, done) -> zk.multi(ops, (rc, p, c, results) -> ok(rc, done), null);
        break;
      }
      default:
        throw new IllegalArgumentException("unknown op " + op);
    }
    String result;
    if (BenchTurns.named(args)) {
      result = turns(issue, inFlight);
    } else {
      for (int slot = 0; slot < inFlight; slot++) next(issue, slot);
      Thread.sleep(Long.parseLong(arg("warmupMs")));
      open();
      Thread.sleep(Long.parseLong(arg("durationMs")));
      result = close("");
      stopped = true;
      drain();
    }
    zk.close();
    return result;
  }

  /** Taking turns with the other contenders (TurnSchedule in src/types.ts, runTurns in src/measure/turns.ts). */
  private static String turns(Issue issue, int inFlight) throws Exception {
    // The warm-up alongside the other contenders, before saying ready (warmUpAlongside in src/measure/turns.ts).
    long warmUpMs = Long.parseLong(args.getOrDefault("turnWarmupMs", "0"));
    if (warmUpMs > 0) {
      stopped = false;
      for (int slot = 0; slot < inFlight; slot++) next(issue, slot);
      Thread.sleep(warmUpMs);
      stopped = true;
      drain();
    }
    BenchTurns turns = BenchTurns.awaitStart(args);
    long ops = 0, errs = 0, cpu = 0, elapsed = 0, drainMs = 0;
    StringBuilder rates = new StringBuilder();
    for (int cycle = 0; cycle <= turns.cycles; cycle++) {
      long start = turns.startOf(cycle);
      BenchTurns.sleepUntil(start);
      stopped = false;
      for (int slot = 0; slot < inFlight; slot++) next(issue, slot);
      BenchTurns.sleepUntil(start + turns.rampMs);
      long o0 = completed.get(), e0 = errors.get(), c0 = cpuNanos(), t0 = System.nanoTime();
      BenchTurns.sleepUntil(start + turns.turnMs);
      long o1 = completed.get(), e1 = errors.get(), c1 = cpuNanos(), t1 = System.nanoTime();
      stopped = true;
      long stoppedAt = System.currentTimeMillis();
      drain();
      if (cycle == 0) continue;
      ops += o1 - o0;
      errs += e1 - e0;
      cpu += c1 - c0;
      elapsed += t1 - t0;
      drainMs = Math.max(drainMs, System.currentTimeMillis() - stoppedAt);
      if (rates.length() > 0) rates.append(',');
      rates.append(String.format(java.util.Locale.ROOT, "%.1f", t1 > t0 ? (o1 - o0) * 1e9 / (t1 - t0) : 0.0));
    }
    return String.format(java.util.Locale.ROOT,
        "{\"ok\":true,\"ops\":%d,\"errors\":%d,\"elapsedMs\":%.3f,\"cpuUs\":%d,\"drainMs\":%d,\"turnRates\":[%s]}",
        ops, errs, elapsed / 1e6, cpu / 1000, drainMs, rates);
  }

  // One op = one session established (connect until SyncConnected). ZooKeeper 3.8's close() cannot keep up:
  // ClientCnxnSocketNIO.cleanup() sleeps 100 ms while holding a lock on the shared ZooKeeper.States constant,
  // so every close in a JVM is serialized at about 10 per second. Closes therefore run on one background
  // thread, as fast as they can; the sessions still open when the cell ends are dropped with the JVM and
  // expire on the server (they ask for the shortest timeout the server grants).
  private static String session() throws Exception {
    long warmup = Long.parseLong(arg("warmupMs")) * 1000000L;
    long end = warmup + Long.parseLong(arg("durationMs")) * 1000000L;
    long[] samples = new long[100000];
    int n = 0;
    boolean opened = false;
    ExecutorService closer = Executors.newSingleThreadExecutor((Runnable r) -> {
      Thread t = new Thread(r, "closer");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    while (System.nanoTime() - start < end) {
      if (!opened && System.nanoTime() - start >= warmup) {
        opened = true;
        open();
      }
      long t = System.nanoTime();
      ZooKeeper zk = connect(4000);
      if (opened && n < samples.length) samples[n++] = Math.max(1, (System.nanoTime() - t) / 1000);
      completed.incrementAndGet();
      closer.execute(() -> {
        try {
          zk.close();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    if (!opened) open();
    return close(latencyJson(samples, n)
        + ",\"note\":\"connect timed; close() runs in the background (serialized by the client at ~10/s)\"");
  }

  private static String watch() throws Exception {
    ZooKeeper watcher = connect();
    ZooKeeper writer = connect();
    String path = arg("watch");
    byte[] data = new byte[Integer.parseInt(arg("dataSize"))];
    long warmup = Long.parseLong(arg("warmupMs")) * 1000000L;
    long end = warmup + Long.parseLong(arg("durationMs")) * 1000000L;
    long[] samples = new long[100000];
    int n = 0;
    boolean opened = false;
    long start = System.nanoTime();
    while (System.nanoTime() - start < end) {
      if (!opened && System.nanoTime() - start >= warmup) {
        opened = true;
        open();
      }
      CountDownLatch fired = new CountDownLatch(1);
      long[] firedAt = {0};
      watcher.getData(path, (WatchedEvent e) -> {
        firedAt[0] = System.nanoTime();
        fired.countDown();
      }, null);
      long t = System.nanoTime();
      writer.setData(path, data, -1);
      if (!fired.await(5, TimeUnit.SECONDS)) throw new IllegalStateException("watch event: none within 5 s");
      if (opened && n < samples.length) samples[n++] = Math.max(1, (firedAt[0] - t) / 1000);
      completed.incrementAndGet();
    }
    if (!opened) open();
    String result = close(latencyJson(samples, n));
    watcher.close();
    writer.close();
    return result;
  }

  public static void main(String[] argv) {
    args = new HashMap<>();
    for (String a : argv) {
      int eq = a.indexOf('=');
      args.put(a.substring(0, eq), a.substring(eq + 1));
    }
    String result;
    try {
      switch (arg("kind")) {
        case "throughput": result = throughput(); break;
        case "latency": result = BenchLatency.run(args, connect()); break;
        case "session": result = session(); break;
        case "watch": result = watch(); break;
        case "scale":
          result = arg("scenario").equals("sessions") ? JavaScale.sessions(args)
              : arg("scenario").equals("watchRestore") ? JavaScale.watchRestore(args)
              : "{\"ok\":false,\"unsupported\":true,\"error\":\"java has no " + arg("scenario") + " cell\"}";
          break;
        default: result = "{\"ok\":false,\"unsupported\":true,\"error\":\"java has no " + arg("kind") + " cell\"}";
      }
    } catch (Throwable t) {
      result = "{\"ok\":false,\"error\":\"" + String.valueOf(t).replace("\\", "\\\\").replace("\"", "'") + "\"}";
    }
    System.out.println("@@result " + result);
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }
}
