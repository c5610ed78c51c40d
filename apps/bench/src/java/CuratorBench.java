// Apache Curator as the contender for the recipes, queues and modeled scenarios: the same loops as
// apps/bench/src/scenarios/recipes.ts and cache.ts (the modeled ones in CuratorModeled.java), one JVM per cell.
// Prints one line "@@result {json}".
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.recipes.queue.SimpleDistributedQueue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;

public final class CuratorBench {
  private static Map<String, String> args;
  private static final AtomicLong completed = new AtomicLong();
  private static volatile boolean stopped = false;
  private static long ops0, cpu0, t0;

  private static String arg(String name) {
    String v = args.get(name);
    if (v == null) throw new IllegalArgumentException("missing argument " + name);
    return v;
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static CuratorFramework client() throws Exception {
    CuratorFramework c = CuratorFrameworkFactory.newClient(arg("connect"), 30000, 10000, new RetryOneTime(100));
    c.start();
    if (!c.blockUntilConnected(10, TimeUnit.SECONDS)) throw new IllegalStateException("curator: no connection in 10 s");
    return c;
  }

  /** Runs `loops` threads until stopped; measures the window between warm-up and the end. */
  private static String measure(List<Runnable> loops) throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (Runnable loop : loops) {
      Thread t = new Thread(loop);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    Thread.sleep(Long.parseLong(arg("warmupMs")));
    ops0 = completed.get();
    cpu0 = cpuNanos();
    t0 = System.nanoTime();
    recording = true;
    Thread.sleep(Long.parseLong(arg("durationMs")));
    recording = false;
    long ops = completed.get() - ops0;
    long cpu = cpuNanos() - cpu0;
    long elapsed = System.nanoTime() - t0;
    stopped = true;
    for (Thread t : threads) t.join(10000);
    return String.format("{\"ok\":true,\"ops\":%d,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d%s}", ops, elapsed / 1e6, cpu / 1000, latencyJson());
  }

  /** queueLatency: put-to-consumer times (µs) taken while the window is open */
  private static volatile boolean recording = false;
  private static final long[] samples = new long[1_000_000];
  private static int sampleCount = 0;

  private static synchronized void record(long startNs) {
    if (recording && sampleCount < samples.length) samples[sampleCount++] = Math.max(1, (System.nanoTime() - startNs) / 1000);
  }

  private static synchronized String latencyJson() {
    int n = sampleCount;
    if (n == 0) return "";
    long[] s = java.util.Arrays.copyOf(samples, n);
    java.util.Arrays.sort(s);
    return String.format(",\"latency\":{\"count\":%d,\"p50\":%d,\"p90\":%d,\"p99\":%d,\"p999\":%d,\"max\":%d}",
        n, pct(s, 50), pct(s, 90), pct(s, 99), pct(s, 99.9), s[n - 1]);
  }

  private static long pct(long[] sorted, double p) {
    int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static QueueSerializer<byte[]> bytesSerializer() {
    return new QueueSerializer<byte[]>() {
      @Override
      public byte[] serialize(byte[] item) {
        return item;
      }

      @Override
      public byte[] deserialize(byte[] raw) {
        return raw;
      }
    };
  }

  /** A consumer that counts every item and releases one permit of `arrived` per item. */
  private static QueueConsumer<byte[]> countingConsumer(Semaphore arrived) {
    return new QueueConsumer<byte[]>() {
      @Override
      public void consumeMessage(byte[] message) {
        completed.incrementAndGet();
        arrived.release();
      }

      @Override
      public void stateChanged(CuratorFramework client, ConnectionState newState) {}
    };
  }

  interface Body {
    void run() throws Exception;
  }

  /** Starts a CuratorCache on `tree` and waits for `initialized`; checks the size when `expected` >= 0. */
  private static CuratorCache loadedCache(CuratorFramework c, String tree, int expected) throws Exception {
    CountDownLatch ready = new CountDownLatch(1);
    CuratorCache cache = CuratorCache.build(c, tree);
    cache.listenable().addListener(CuratorCacheListener.builder().forInitialized(ready::countDown).build());
    cache.start();
    if (!ready.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("cache: no initial load in 60 s");
    if (expected >= 0 && cache.size() != expected)
      throw new IllegalStateException("cache: loaded " + cache.size() + " nodes, expected " + expected);
    return cache;
  }

  private static long heapUsed() {
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static Runnable loop(Body body) {
    return () -> {
      try {
        while (!stopped) {
          body.run();
          completed.incrementAndGet();
        }
      } catch (Exception e) {
        if (!stopped) fail(e);
      }
    };
  }

  /** Reports a failed loop and ends the JVM at once (other loops may be blocked). */
  private static void fail(Exception e) {
    System.out.println("@@result {\"ok\":false,\"error\":\"" + String.valueOf(e).replace("\\", "/").replace("\"", "'") + "\"}");
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }

  public static void main(String[] argv) {
    args = new HashMap<>();
    for (String a : argv) {
      int eq = a.indexOf('=');
      args.put(a.substring(0, eq), a.substring(eq + 1));
    }
    String result;
    List<CuratorFramework> clients = new ArrayList<>();
    try {
      String base = arg("base");
      List<Runnable> loops = new ArrayList<>();
      switch (arg("scenario")) {
        case "lockUncontended": {
          CuratorFramework c = client();
          clients.add(c);
          InterProcessMutex mutex = new InterProcessMutex(c, base + "/lock");
          loops.add(loop(() -> {
            mutex.acquire();
            mutex.release();
          }));
          break;
        }
        case "lockHandoff": {
          int n = 10; // HANDOFF_SESSIONS in src/scenarios/recipes.ts
          for (int i = 0; i < n; i++) {
            CuratorFramework c = client();
            clients.add(c);
            InterProcessMutex mutex = new InterProcessMutex(c, base + "/lock");
            loops.add(loop(() -> {
              mutex.acquire();
              mutex.release();
            }));
          }
          break;
        }
        case "queue": {
          CuratorFramework c = client();
          clients.add(c);
          SimpleDistributedQueue queue = new SimpleDistributedQueue(c, base + "/queue");
          byte[] item = new byte[Integer.parseInt(arg("dataSize"))];
          loops.add(loop(() -> {
            queue.offer(item);
            queue.take();
          }));
          break;
        }
        case "distributedQueue":
        case "queuePutMulti": {
          // one producer, one consumer on one client; an op is an item consumed; at most 100 waiting;
          // queuePutMulti writes 10 items per node with putMulti
          int batch = arg("scenario").equals("queuePutMulti") ? 10 : 1;
          CuratorFramework c = client();
          clients.add(c);
          Semaphore backlog = new Semaphore(100);
          DistributedQueue<byte[]> queue =
              QueueBuilder.builder(c, countingConsumer(backlog), bytesSerializer(), base + "/dqueue").buildQueue();
          queue.start();
          byte[] item = new byte[Integer.parseInt(arg("dataSize"))];
          // the producer: its ops are not counted (the consumer counts), so it is not built with loop()
          loops.add(() -> {
            try {
              while (!stopped) {
                if (!backlog.tryAcquire(batch, 50, TimeUnit.MILLISECONDS)) continue;
                if (batch == 1) {
                  queue.put(item);
                } else {
                  int[] left = {batch};
                  queue.putMulti(() -> left[0]-- > 0 ? item : null);
                }
              }
            } catch (Exception e) {
              if (!stopped) fail(e);
            }
          });
          break;
        }
        case "queueLatency": {
          // end to end: put one item, wait for the consumer to get it, then the next; time put() to consumer
          CuratorFramework c = client();
          clients.add(c);
          Semaphore arrived = new Semaphore(0);
          DistributedQueue<byte[]> queue =
              QueueBuilder.builder(c, countingConsumer(arrived), bytesSerializer(), base + "/dqueue").buildQueue();
          queue.start();
          byte[] item = new byte[Integer.parseInt(arg("dataSize"))];
          loops.add(() -> {
            try {
              while (!stopped) {
                long t = System.nanoTime();
                queue.put(item);
                if (!arrived.tryAcquire(10, TimeUnit.SECONDS)) throw new IllegalStateException("queue: an item took over 10 s");
                record(t);
              }
            } catch (Exception e) {
              if (!stopped) fail(e);
            }
          });
          break;
        }
        case "cacheLoad": {
          // one op = a whole initial load of the fixture tree (start, wait for initialized, close); a load can
          // outlast a cell's window, so: one load to warm up, then loads for durationMs and at least 3
          CuratorFramework c = client();
          clients.add(c);
          String tree = arg("tree");
          CuratorCache first = loadedCache(c, tree, -1);
          int nodes = first.size();
          first.close();
          recording = true;
          long cpuStart = cpuNanos();
          long start = System.nanoTime();
          long durationNs = Long.parseLong(arg("durationMs")) * 1_000_000L;
          int loads = 0;
          while (loads < 3 || System.nanoTime() - start < durationNs) {
            long t = System.nanoTime();
            loadedCache(c, tree, nodes).close();
            record(t);
            loads++;
          }
          long elapsed = System.nanoTime() - start;
          long cpu = cpuNanos() - cpuStart;
          recording = false;
          // the median of three tries, as the Node side does
          long[] tries = new long[3];
          for (int i = 0; i < 3; i++) {
            long before = heapUsed();
            CuratorCache held = loadedCache(c, tree, nodes);
            tries[i] = (heapUsed() - before) / nodes;
            held.close();
          }
          java.util.Arrays.sort(tries);
          long perNode = tries[1];
          result = String.format("{\"ok\":true,\"ops\":%d,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d%s,"
              + "\"note\":\"one op = a full load of %d nodes (percentiles: load time); heap per cached node %d bytes\"}",
              loads, elapsed / 1e6, cpu / 1000, latencyJson(), nodes, perNode);
          System.out.println("@@result " + result);
          System.out.flush();
          Runtime.getRuntime().halt(0);
          break;
        }
        case "cacheLatency": {
          // a second session sets a node of the cached tree; time from setData's send to the cache's event
          CuratorFramework c = client();
          CuratorFramework w = client();
          clients.add(c);
          clients.add(w);
          String tree = arg("tree");
          CuratorCache cache = loadedCache(c, tree, -1);
          List<String> targets = new ArrayList<>();
          for (String name : w.getChildren().forPath(tree)) if (targets.size() < 10) targets.add(tree + "/" + name);
          AtomicReference<String> waiting = new AtomicReference<>();
          Semaphore arrived = new Semaphore(0);
          cache.listenable().addListener(CuratorCacheListener.builder().forChanges((oldNode, node) -> {
            if (node.getPath().equals(waiting.get())) arrived.release();
          }).build());
          byte[] item = new byte[Integer.parseInt(arg("dataSize"))];
          int[] next = {0};
          loops.add(loop(() -> {
            String path = targets.get(next[0]++ % targets.size());
            arrived.drainPermits();
            waiting.set(path);
            long t = System.nanoTime();
            w.setData().forPath(path, item);
            if (!arrived.tryAcquire(10, TimeUnit.SECONDS)) throw new IllegalStateException("cache: a change took over 10 s");
            record(t);
          }));
          break;
        }
        case "modeledRead": {
          System.out.println("@@result " + CuratorModeled.modeledRead(client(), args));
          System.out.flush();
          Runtime.getRuntime().halt(0);
          break;
        }
        case "modeledUpdate": {
          System.out.println("@@result " + CuratorModeled.modeledUpdate(client(), client(), args));
          System.out.flush();
          Runtime.getRuntime().halt(0);
          break;
        }
        case "cacheScale": {
          System.out.println("@@result " + CuratorScale.cacheScale(client(), client(), client(), args));
          System.out.flush();
          Runtime.getRuntime().halt(0);
          break;
        }
        default:
          throw new IllegalArgumentException("unknown scenario " + arg("scenario"));
      }
      result = measure(loops);
    } catch (Throwable t) {
      result = "{\"ok\":false,\"error\":\"" + String.valueOf(t).replace("\\", "\\\\").replace("\"", "'") + "\"}";
    }
    System.out.println("@@result " + result);
    System.out.flush();
    Runtime.getRuntime().halt(0);
  }
}
