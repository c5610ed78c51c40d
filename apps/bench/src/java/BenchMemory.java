// The memory cells for the official Java client, mirroring src/worker/run-memory.ts: heap and RSS per armed
// one-shot watch, for one persistent recursive watch (armed, then after an event per node), and per request
// in flight. Heap = used heap (total - free) after System.gc() (a full collection with SerialGC); RSS from
// /proc/self/status. A JVM is a different runtime: its figures are shown beside the Node clients', not ranked.
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

final class BenchMemory {
  static final int TRIES = 3;
  static final int WARMUP = 2000;
  static final int WINDOW = 1000;
  // the tree's shape: see src/memory-tree.ts
  static final int PARENTS = 100;
  static final int LEAVES = 999;

  interface Connector {
    ZooKeeper connect() throws Exception;
  }

  interface Issue {
    void issue(int index, Runnable ok, Runnable fail);
  }

  private BenchMemory() {}

  /** Closes a session and gives its threads a moment to end. */
  static void close(ZooKeeper zk) throws Exception {
    zk.close();
    Thread.sleep(300);
  }

  /**
   * The baseline, once the used heap has settled (two samples 200 ms apart within 64 KiB, at most 5 s): a
   * closed client stays reachable for a while after close() returns (seen as 10,000-watch tries after the
   * first that grew by nothing, the previous try's tables being freed meanwhile).
   */
  static long[] settledSample() throws Exception {
    long[] last = sample();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < deadline) {
      Thread.sleep(200);
      long[] next = sample();
      boolean settled = Math.abs(next[0] - last[0]) < 65536;
      last = next;
      if (settled) break;
    }
    return last;
  }

  static String nodePath(String root, int index) {
    int parent = index / (1 + LEAVES);
    int leaf = index % (1 + LEAVES);
    String parentPath = root + "/p" + String.format("%03d", parent);
    return leaf == 0 ? parentPath : parentPath + "/n" + String.format("%03d", leaf - 1);
  }

  /** {used heap, RSS} in bytes after full collections. */
  static long[] sample() throws Exception {
    System.gc();
    System.gc();
    Runtime r = Runtime.getRuntime();
    long heap = r.totalMemory() - r.freeMemory();
    long rss = 0;
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024L;
    }
    return new long[] {heap, rss};
  }

  /** Runs issue(i) for i in 0..count-1 with at most WINDOW outstanding; throws if any failed. */
  static void pipelined(int count, Issue issue) throws Exception {
    Semaphore window = new Semaphore(WINDOW);
    CountDownLatch done = new CountDownLatch(count);
    AtomicReference<String> failure = new AtomicReference<>();
    for (int i = 0; i < count; i++) {
      window.acquire();
      issue.issue(i, () -> {
        window.release();
        done.countDown();
      }, () -> {
        failure.compareAndSet(null, "a request failed");
        window.release();
        done.countDown();
      });
    }
    if (!done.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("no replies in 120 s");
    if (failure.get() != null) throw new IllegalStateException(failure.get());
  }

  static final Watcher IGNORE = (WatchedEvent e) -> {};

  static long[] armWatches(Connector c, String tree, int count) throws Exception {
    ZooKeeper zk = c.connect();
    try {
      zk.getData(tree, false, null);
      long[] before = settledSample();
      pipelined(count, (i, ok, fail) -> zk.getData(nodePath(tree, i), IGNORE,
          (rc, p, ctx, d, s) -> (rc == 0 ? ok : fail).run(), null));
      long[] after = sample();
      return new long[] {after[0] - before[0], after[1] - before[1]};
    } finally {
      close(zk);
    }
  }

  /** {armed heap, armed RSS, handled heap, handled RSS}, growth from the baseline. */
  static long[] recursive(Connector c, String tree, int count) throws Exception {
    ZooKeeper zk = c.connect();
    try {
      zk.getData(tree, false, null);
      long[] before = settledSample();
      CountDownLatch events = new CountDownLatch(count);
      zk.addWatch(tree, (WatchedEvent e) -> {
        if (e.getType() == Watcher.Event.EventType.NodeDataChanged) events.countDown();
      }, AddWatchMode.PERSISTENT_RECURSIVE);
      long[] armed = sample();
      byte[] empty = new byte[0];
      pipelined(count, (i, ok, fail) -> zk.setData(nodePath(tree, i), empty, -1,
          (rc, p, ctx, s) -> (rc == 0 ? ok : fail).run(), null));
      if (!events.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("watch events: not all in 60 s");
      long[] handled = sample();
      return new long[] {armed[0] - before[0], armed[1] - before[1], handled[0] - before[0], handled[1] - before[1]};
    } finally {
      close(zk);
    }
  }

  /** count getData issued at once; figures taken right after (replies may already be arriving: other threads). */
  static long[] inFlight(ZooKeeper zk, String path, int count) throws Exception {
    long[] before = sample();
    CountDownLatch done = new CountDownLatch(count);
    for (int i = 0; i < count; i++) zk.getData(path, false, (rc, p, ctx, d, s) -> done.countDown(), null);
    long[] during = sample();
    if (!done.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("replies: not all in 60 s");
    return new long[] {during[0] - before[0], during[1] - before[1]};
  }

  private static String list(List<Long> values) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) b.append(i == 0 ? "" : ",").append(values.get(i));
    return b.append(']').toString();
  }

  static String run(Map<String, String> args, Connector c) throws Exception {
    String cell = args.get("memoryCell");
    String tree = args.get("tree");
    int count = Integer.parseInt(args.get("inFlight"));
    if (tree == null || tree.isEmpty()) throw new IllegalArgumentException("the run made no memory tree");
    long t0 = System.nanoTime();
    List<Long> heap = new ArrayList<>();
    List<Long> rss = new ArrayList<>();
    List<Long> afterHeap = new ArrayList<>();
    List<Long> afterRss = new ArrayList<>();
    int units = count;
    switch (cell) {
      case "watches":
        armWatches(c, tree, Math.min(count, WARMUP));
        for (int t = 0; t < TRIES; t++) {
          long[] g = armWatches(c, tree, count);
          heap.add(g[0]);
          rss.add(g[1]);
        }
        break;
      case "recursive":
        recursive(c, tree, Math.min(count, WARMUP));
        units = 1;
        for (int t = 0; t < TRIES; t++) {
          long[] g = recursive(c, tree, count);
          heap.add(g[0]);
          rss.add(g[1]);
          afterHeap.add(g[2]);
          afterRss.add(g[3]);
        }
        break;
      case "inFlight": {
        ZooKeeper zk = c.connect();
        try {
          inFlight(zk, args.get("data"), Math.min(count, WARMUP));
          for (int t = 0; t < TRIES; t++) {
            long[] g = inFlight(zk, args.get("data"), count);
            heap.add(g[0]);
            rss.add(g[1]);
          }
        } finally {
          zk.close();
        }
        break;
      }
      default:
        throw new IllegalArgumentException("unknown memory cell " + cell);
    }
    String after = afterHeap.isEmpty() ? ""
        : String.format(",\"afterEvents\":{\"events\":%d,\"heapBytes\":%s,\"rssBytes\":%s}", count, list(afterHeap),
            list(afterRss));
    return String.format(
        "{\"ok\":true,\"ops\":%d,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":0,\"memory\":{\"units\":%d,\"heapBytes\":%s,\"rssBytes\":%s%s},\"note\":\"JVM: used heap after System.gc()\"}",
        TRIES, (System.nanoTime() - t0) / 1e6, units, list(heap), list(rss), after);
  }
}
