// The scale cells of the official Java client: sessions and watchRestore, with the same steps and figures as
// apps/bench/src/scenarios/sessions-scale.ts and watch-restore.ts. watchRestore runs its own loopback proxy
// (the Node cells use @zkwire/testing's fault proxy): it forwards bytes, counts the SetWatches frames the
// client writes on a new connection, and cuts every connection with a TCP reset.
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

final class JavaScale {
  /** connects in flight at once (STORM_IN_FLIGHT in sessions-scale.ts) */
  private static final int STORM_IN_FLIGHT = 500;
  /** requests in flight while arming and setting (WINDOW in watch-restore.ts) */
  private static final int WINDOW = 1000;

  private JavaScale() {}



  /** Opens a session without waiting; `connected` counts down at SyncConnected. */
  private static ZooKeeper open(String connect, CountDownLatch connected, Runnable onConnected) throws Exception {
    return new ZooKeeper(connect, 30000, (WatchedEvent e) -> {
      if (e.getState() == Watcher.Event.KeeperState.SyncConnected && connected.getCount() > 0) {
        connected.countDown();
        onConnected.run();
      }
    });
  }

  private static String scaleJson(int size, double timeMs, double cpuMs, String figures) {
    return String.format(Locale.ROOT,
        "{\"ok\":true,\"ops\":1,\"errors\":0,\"elapsedMs\":%.3f,\"cpuUs\":%d,\"scale\":{\"size\":%d,\"timeMs\":%.3f,\"figures\":{%s}}}",
        timeMs, Math.round(cpuMs * 1000), size, timeMs, figures);
  }

  // The sessions are not closed: the 3.8 client closes about 10 a second in one JVM (BenchDriver.session), so
  // they end with the JVM and expire on the server.
  static String sessions(Map<String, String> args) throws Exception {
    String connect = args.get("connect");
    int size = Integer.parseInt(args.get("inFlight"));
    // Each Java session holds its socket and its own selector (an epoll and a wakeup descriptor): say so
    // rather than fail deep in ClientCnxnSocketNIO when the process may not open that many files.
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
      long max = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
      if (3L * size > max) {
        throw new IllegalStateException(size + " Java sessions need about " + 3L * size
            + " open files (a socket and a selector's two descriptors each); this process may open " + max + " (ulimit -n)");
      }
    }
    List<ZooKeeper> sessions = new CopyOnWriteArrayList<>();
    // warmUpSessions in sessions-scale.ts: a tenth of the size, 1 to 100, connected before the baseline
    int warm = Math.max(1, Math.min(100, size / 10));
    CountDownLatch warmUp = new CountDownLatch(warm);
    for (int i = 0; i < warm; i++) sessions.add(open(connect, new CountDownLatch(1), warmUp::countDown));
    if (!warmUp.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("connect: " + warm + " sessions not up in 60 s");
    long heap0 = ScaleMemory.heapUsed();
    long rss0 = ScaleMemory.rss();
    long cpu0 = BenchDriver.cpuNanos();
    long t0 = System.nanoTime();
    Semaphore storm = new Semaphore(STORM_IN_FLIGHT);
    CountDownLatch all = new CountDownLatch(size - warm);
    for (int i = warm; i < size; i++) {
      storm.acquire();
      sessions.add(open(connect, new CountDownLatch(1), () -> {
        storm.release();
        all.countDown();
      }));
    }
    if (!all.await(600, TimeUnit.SECONDS)) throw new IllegalStateException((size - all.getCount()) + " of " + size + " connected in 600 s");
    double connectMs = (System.nanoTime() - t0) / 1e6;
    double connectCpuMs = (BenchDriver.cpuNanos() - cpu0) / 1e6;
    double heapPer = (double) (ScaleMemory.heapUsed() - heap0) / (size - warm);
    double rssPer = (double) (ScaleMemory.rss() - rss0) / (size - warm);
    Thread.sleep(Long.parseLong(args.get("warmupMs")));
    long cpu1 = BenchDriver.cpuNanos();
    long t1 = System.nanoTime();
    Thread.sleep(Long.parseLong(args.get("durationMs")));
    double idleS = (System.nanoTime() - t1) / 1e9;
    double idleCpuUs = (BenchDriver.cpuNanos() - cpu1) / 1e3;
    // every session must still answer, as the Node cells check
    AtomicInteger failed = new AtomicInteger();
    Semaphore window = new Semaphore(STORM_IN_FLIGHT);
    CountDownLatch answered = new CountDownLatch(sessions.size());
    for (ZooKeeper zk : sessions) {
      window.acquire();
      zk.exists(args.get("data"), false, (rc, p, ctx, stat) -> {
        if (rc != 0) failed.incrementAndGet();
        window.release();
        answered.countDown();
      }, null);
    }
    if (!answered.await(120, TimeUnit.SECONDS) || failed.get() > 0)
      return "{\"ok\":false,\"error\":\"" + failed.get() + " of " + size + " sessions did not answer after idling\"}";
    String figures = String.format(Locale.ROOT,
        "\"connectMs\":%.3f,\"connectCpuMs\":%.3f,\"heapPerSession\":%.1f,\"rssPerSession\":%.1f,\"idleCpuMsPerS\":%.4f,\"idleCpuUsPerSessionPerS\":%.5f",
        connectMs, connectCpuMs, heapPer, rssPer, idleCpuUs / 1000 / idleS, idleCpuUs / idleS / size);
    return scaleJson(size, connectMs, connectCpuMs, figures);
  }

  /** A loopback proxy to the server that counts SetWatches frames and can cut its connections. */
  static final class Proxy implements AutoCloseable {
    final ServerSocket listener = new ServerSocket();
    final List<Socket> open = new CopyOnWriteArrayList<>();
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger frames = new AtomicInteger();
    final AtomicLong frameBytes = new AtomicLong();
    volatile long lastFrameNs;

    Proxy(String host, int port) throws Exception {
      listener.bind(new InetSocketAddress("127.0.0.1", 0));
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            Socket client = listener.accept();
            Socket server = new Socket(host, port);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
            open.add(client);
            open.add(server);
            accepted.incrementAndGet();
            pump(client, server, true);
            pump(server, client, false);
          }
        } catch (Exception e) {
          // closed
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
    }

    String connectString() {
      return "127.0.0.1:" + listener.getLocalPort();
    }

    /** Copies `from` to `to`; client to server, it parses frames: the first is the ConnectRequest. */
    private void pump(Socket from, Socket to, boolean parse) {
      Thread t = new Thread(() -> {
        byte[] buf = new byte[65536];
        ByteBuffer pending = ByteBuffer.allocate(1 << 20);
        boolean connectSeen = false;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          int n;
          while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            if (!parse) continue;
            if (pending.remaining() < n) {
              ByteBuffer bigger = ByteBuffer.allocate(Math.max(pending.capacity() * 2, pending.position() + n));
              pending.flip();
              bigger.put(pending);
              pending = bigger;
            }
            pending.put(buf, 0, n);
            pending.flip();
            while (pending.remaining() >= 4) {
              int length = pending.getInt(pending.position());
              if (pending.remaining() < 4 + length) break;
              if (!connectSeen) connectSeen = true;
              else if (length >= 8) {
                int type = pending.getInt(pending.position() + 8);
                if (type == 101 || type == 105) {
                  frames.incrementAndGet();
                  frameBytes.addAndGet(4 + length);
                  lastFrameNs = System.nanoTime();
                }
              }
              pending.position(pending.position() + 4 + length);
            }
            pending.compact();
          }
        } catch (Exception e) {
          // cut or closed
        } finally {
          try {
            from.close();
            to.close();
          } catch (Exception ignored) {
            // already closed
          }
        }
      });
      t.setDaemon(true);
      t.start();
    }

    /** Resets every connection (SO_LINGER 0: an RST, as the fault proxy's cut()). */
    void cut() throws Exception {
      for (Socket s : open) {
        if (s.isClosed()) continue;
        try {
          s.setSoLinger(true, 0);
          s.close();
        } catch (java.net.SocketException e) {
          // closed by its pump meanwhile
        }
      }
      open.clear();
    }

    @Override
    public void close() throws Exception {
      listener.close();
      cut();
    }
  }

  private static String[] treePaths(String root, int size) {
    String[] paths = new String[size];
    paths[0] = root;
    for (int i = 1; i < size; i++) paths[i] = paths[(i - 1) / 100] + "/n" + ((i - 1) % 100);
    return paths;
  }

  static String watchRestore(Map<String, String> args) throws Exception {
    String[] hostPort = args.get("connect").split(":");
    int size = Integer.parseInt(args.get("inFlight"));
    String[] paths = treePaths(args.get("tree"), size);
    try (Proxy proxy = new Proxy(hostPort[0], Integer.parseInt(hostPort[1]))) {
      CountDownLatch up = new CountDownLatch(1);
      ZooKeeper watched = open(proxy.connectString(), up, () -> {});
      CountDownLatch writerUp = new CountDownLatch(1);
      ZooKeeper writer = open(args.get("connect"), writerUp, () -> {});
      if (!up.await(10, TimeUnit.SECONDS) || !writerUp.await(10, TimeUnit.SECONDS))
        throw new IllegalStateException("connect: no session in 10 s");
      AtomicIntegerArray fired = new AtomicIntegerArray(size);
      Semaphore window = new Semaphore(WINDOW);
      CountDownLatch armed = new CountDownLatch(size);
      for (int i = 0; i < size; i++) {
        final int k = i;
        window.acquire();
        watched.getData(paths[i], (WatchedEvent e) -> {
          if (e.getType() == Watcher.Event.EventType.NodeDataChanged) fired.incrementAndGet(k);
        }, (rc, p, ctx, data, stat) -> {
          window.release();
          armed.countDown();
        }, null);
      }
      if (!armed.await(120, TimeUnit.SECONDS)) throw new IllegalStateException("arming: no answer in 120 s");
      Thread.sleep(Long.parseLong(args.get("warmupMs")));
      int before = proxy.accepted.get();
      proxy.frames.set(0);
      proxy.frameBytes.set(0);
      long cpu0 = BenchDriver.cpuNanos();
      proxy.cut();
      while (proxy.accepted.get() == before) Thread.sleep(0, 200_000);
      long reconnected = System.nanoTime();
      // a request after the reconnect: its reply comes after the server has taken every SetWatches
      while (true) {
        if (System.nanoTime() - reconnected > 60_000_000_000L)
          return "{\"ok\":false,\"error\":\"no request answered 60000 ms after the reconnect\"}";
        try {
          watched.exists(args.get("data"), false);
          break;
        } catch (org.apache.zookeeper.KeeperException.ConnectionLossException e) {
          Thread.sleep(5);
        }
      }
      double restoreMs = (System.nanoTime() - reconnected) / 1e6;
      double restoreCpuMs = (BenchDriver.cpuNanos() - cpu0) / 1e6;
      int frames = proxy.frames.get();
      long bytes = proxy.frameBytes.get();
      double lastFrameMs = frames > 0 ? (proxy.lastFrameNs - reconnected) / 1e6 : 0;
      byte[] data = new byte[Integer.parseInt(args.get("dataSize"))];
      CountDownLatch set = new CountDownLatch(size);
      for (int i = 0; i < size; i++) {
        window.acquire();
        writer.setData(paths[i], data, -1, (rc, p, ctx, stat) -> {
          window.release();
          set.countDown();
        }, null);
      }
      set.await(120, TimeUnit.SECONDS);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (System.nanoTime() < deadline) {
        boolean all = true;
        for (int i = 0; i < size && all; i++) all = fired.get(i) > 0;
        if (all) break;
        Thread.sleep(20);
      }
      Thread.sleep(500);
      int missing = 0;
      int twice = 0;
      for (int i = 0; i < size; i++) {
        if (fired.get(i) == 0) missing++;
        else if (fired.get(i) > 1) twice++;
      }
      if (missing > 0 || twice > 0)
        return "{\"ok\":false,\"error\":\"after the reconnect " + missing + " of " + size
            + " watches never fired and " + twice + " fired more than once\"}";
      String figures = String.format(Locale.ROOT,
          "\"restoreMs\":%.3f,\"restoreCpuMs\":%.3f,\"setWatchesFrames\":%d,\"setWatchesBytes\":%d,\"lastSetWatchesMs\":%.3f,\"firedOnce\":%d",
          restoreMs, restoreCpuMs, frames, bytes, lastFrameMs, size);
      return scaleJson(size, restoreMs, restoreCpuMs, figures);
    }
  }
}
