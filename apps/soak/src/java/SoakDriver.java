import java.io.BufferedReader;
import java.io.FileWriter;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.MultiItem;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueuePutListener;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * One Curator soak process: the same workloads as the Node worker (mutex, semaphore, leader latch, lock-safe
 * queue, plain writes) on the same paths, logging the same JSON events. Args: proc connectString logPath
 * sessionTimeoutMs seed leases. Stdin: "stop", "exit" (EOF = exit). Stdout: "ready", "stopped".
 *
 * A hold writes only while it is provably still its own: no SUSPENDED/LOST since it began, the same session,
 * and through the raw ZooKeeper handle (Curator's retry loop would replay a write on a new session).
 */
public class SoakDriver {
  static final String ROOT = "/soak";
  static final String MUTEX = ROOT + "/mutex", SEM = ROOT + "/semaphore", LEADER = ROOT + "/leader";
  static final String QUEUE = ROOT + "/queue", QLOCKS = ROOT + "/queue-locks", WRITES = ROOT + "/writes";
  static final String MUTEX_GUARD = ROOT + "/guard-mutex", LEADER_GUARD = ROOT + "/guard-leader";
  static final String MARKS = ROOT + "/semaphore-marks";
  static final Pattern TOKEN = Pattern.compile("\"token\":(-?\\d+)");

  static String proc;
  static Writer log;
  static CuratorFramework client;
  static volatile boolean stopping = false;
  static final AtomicLong generation = new AtomicLong();
  static Random random;

  static String q(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static synchronized void event(String kind, String fields) {
    try {
      log.write("{\"t\":" + System.currentTimeMillis() + ",\"proc\":" + q(proc) + ",\"kind\":" + q(kind) + fields + "}\n");
      log.flush();
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }

  static void op(String op, Exception error) {
    String name = error instanceof KeeperException ? ((KeeperException) error).code().name() : error.getClass().getSimpleName();
    event("op", ",\"op\":" + q(op) + ",\"ok\":false,\"error\":" + q(name));
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static ZooKeeper zk() throws Exception {
    return client.getZookeeperClient().getZooKeeper();
  }

  static int seq(String path) {
    return Integer.parseInt(path.substring(path.length() - 10));
  }

  static String czxid(String path) {
    try {
      Stat stat = client.checkExists().forPath(path);
      return stat == null ? "0" : Long.toString(stat.getCzxid());
    } catch (Exception e) {
      return "0";
    }
  }

  /** True while nothing suggests the hold begun at generation g on session sid may be gone. */
  static BooleanSupplier alive(long g, long sid) {
    return () -> {
      try {
        return generation.get() == g && zk().getSessionId() == sid && client.getZookeeperClient().isConnected();
      } catch (Exception e) {
        return false;
      }
    };
  }

  /** The guarded resource: returns false when the hold should end (rejected or failed). */
  static boolean fencedWrite(String resource, String guard, String hold, int token, BooleanSupplier alive) {
    for (int attempt = 0; attempt < 5; attempt++) {
      if (!alive.getAsBoolean()) return false;
      try {
        ZooKeeper zk = zk();
        Stat stat = new Stat();
        String data = new String(zk.getData(guard, false, stat), StandardCharsets.UTF_8);
        Matcher m = TOKEN.matcher(data);
        int seen = m.find() ? Integer.parseInt(m.group(1)) : -1;
        if (seen > token) {
          event("guard-reject", ",\"resource\":" + q(resource) + ",\"hold\":" + q(hold) + ",\"token\":" + token + ",\"seen\":" + seen);
          return false;
        }
        if (!alive.getAsBoolean()) return false;
        byte[] body = ("{\"token\":" + token + ",\"hold\":" + q(hold) + "}").getBytes(StandardCharsets.UTF_8);
        Stat written = zk.setData(guard, body, stat.getVersion());
        event("hold-write", ",\"resource\":" + q(resource) + ",\"hold\":" + q(hold) + ",\"token\":" + token
            + ",\"zxid\":" + q(Long.toString(written.getMzxid())) + ",\"fenced\":true");
        return true;
      } catch (KeeperException.BadVersionException e) {
        // a concurrent writer: read again
      } catch (Exception e) {
        op(resource + "-write", e);
        return false;
      }
    }
    return false;
  }

  static void acquired(String resource, String hold, int token, String node) throws Exception {
    event("acquire", ",\"resource\":" + q(resource) + ",\"hold\":" + q(hold) + ",\"token\":" + token + ",\"node\":" + q(node)
        + ",\"czxid\":" + q(czxid(node)) + ",\"session\":" + q(Long.toString(zk().getSessionId())));
  }

  static void released(String resource, String hold, String reason) {
    event("release", ",\"resource\":" + q(resource) + ",\"hold\":" + q(hold) + ",\"reason\":" + q(reason));
  }

  /** getLockPath() is protected: the node this thread holds. */
  static class Mutex extends InterProcessMutex {
    Mutex() {
      super(client, MUTEX);
    }

    String lockPath() {
      return getLockPath();
    }
  }

  static void mutexLoop() {
    Mutex mutex = new Mutex();
    for (int n = 0; !stopping; n++) {
      try {
        long g = generation.get();
        if (!mutex.acquire(5, TimeUnit.SECONDS)) {
          event("op", ",\"op\":\"mutex-acquire\",\"ok\":false,\"error\":\"timeout\"");
          continue;
        }
        String hold = proc + "-m" + n;
        String node = mutex.lockPath();
        int token = seq(node);
        BooleanSupplier alive = alive(g, zk().getSessionId());
        acquired("mutex", hold, token, node);
        for (int i = 0; i < 3 && fencedWrite("mutex", MUTEX_GUARD, hold, token, alive); i++) sleep(20 + random.nextInt(120));
        String reason = alive.getAsBoolean() ? "released" : "lost";
        try {
          mutex.release();
        } catch (Exception e) {
          reason = "release failed: " + e.getClass().getSimpleName();
        }
        released("mutex", hold, reason);
      } catch (Exception e) {
        op("mutex-acquire", e);
        sleep(300);
      }
      sleep(random.nextInt(200));
    }
  }

  static void semaphoreLoop(int leases) {
    InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, SEM, leases);
    String marks = MARKS + "/" + proc;
    for (int n = 0; !stopping; n++) {
      try {
        long g = generation.get();
        Lease lease = semaphore.acquire(5, TimeUnit.SECONDS);
        if (lease == null) {
          event("op", ",\"op\":\"semaphore-acquire\",\"ok\":false,\"error\":\"timeout\"");
          continue;
        }
        String hold = proc + "-s" + n;
        String node = lease.getNodeName().startsWith("/") ? lease.getNodeName() : SEM + "/leases/" + lease.getNodeName();
        int token = seq(node);
        BooleanSupplier alive = alive(g, zk().getSessionId());
        acquired("semaphore", hold, token, node);
        for (int i = 0; i < 3 && alive.getAsBoolean(); i++) {
          try {
            Stat stat = zk().setData(marks, hold.getBytes(StandardCharsets.UTF_8), -1);
            event("hold-write", ",\"resource\":\"semaphore\",\"hold\":" + q(hold) + ",\"token\":" + token
                + ",\"zxid\":" + q(Long.toString(stat.getMzxid())) + ",\"fenced\":false");
          } catch (Exception e) {
            break;
          }
          sleep(20 + random.nextInt(150));
        }
        String reason = alive.getAsBoolean() ? "released" : "lost";
        try {
          lease.close();
        } catch (Exception e) {
          reason = "close failed: " + e.getClass().getSimpleName();
        }
        released("semaphore", hold, reason);
      } catch (Exception e) {
        op("semaphore-acquire", e);
        sleep(300);
      }
      sleep(random.nextInt(200));
    }
  }

  static void leaderLoop() {
    while (!stopping) {
      LeaderLatch latch = new LeaderLatch(client, LEADER, proc);
      try {
        latch.start();
        int termLimit = 4 + random.nextInt(12);
        int beats = 0;
        String term = null;
        BooleanSupplier connected = null;
        while (!stopping && beats < termLimit) {
          String ours = latch.getOurPath();
          if (!latch.hasLeadership() || ours == null) {
            if (term != null) released("leader", proc + "-L" + seq(term), "lost");
            term = null;
            sleep(200);
            continue;
          }
          if (!ours.equals(term)) {
            term = ours;
            connected = alive(generation.get(), zk().getSessionId());
            acquired("leader", proc + "-L" + seq(term), seq(term), term);
          }
          final String myTerm = term;
          final BooleanSupplier stillConnected = connected;
          BooleanSupplier alive = () -> latch.hasLeadership() && myTerm.equals(latch.getOurPath()) && stillConnected.getAsBoolean();
          fencedWrite("leader", LEADER_GUARD, proc + "-L" + seq(term), seq(term), alive);
          beats++;
          sleep(250);
        }
        if (term != null) released("leader", proc + "-L" + seq(term), "stepped down");
      } catch (Exception e) {
        op("leader-latch", e);
        sleep(300);
      } finally {
        try {
          latch.close();
        } catch (Exception e) {
          // already closed by a lost session: nothing to give up
        }
      }
    }
  }

  static void produceLoop(DistributedQueue<String> queue) {
    for (int n = 0; !stopping; n++) {
      String id = proc + "-q" + n;
      try {
        queue.put(id); // asynchronous: the put listener logs the acknowledgement
      } catch (Exception e) {
        op("queue-put", e);
      }
      sleep(100 + random.nextInt(200));
    }
  }

  static void writeLoop() {
    Map<String, int[]> live = new HashMap<>(); // path -> {version, value}
    for (int n = 0; !stopping; n++) {
      double roll = random.nextDouble();
      List<String> owned = new ArrayList<>(live.keySet());
      String path = owned.size() < 4 || roll < 0.4 ? WRITES + "/" + proc + "-" + n : owned.get(random.nextInt(owned.size()));
      int[] node = live.get(path);
      try {
        if (node == null) {
          String data = proc + ":" + n + ":0";
          Stat stat = new Stat();
          client.create().storingStatIn(stat).forPath(path, data.getBytes(StandardCharsets.UTF_8));
          live.put(path, new int[] {stat.getVersion(), 0});
          event("write", ",\"path\":" + q(path) + ",\"op\":\"create\",\"data\":" + q(data) + ",\"zxid\":" + q(Long.toString(stat.getCzxid())));
        } else if (roll < 0.85) {
          int value = node[1] + 1;
          String data = path + ":" + value;
          Stat stat = client.setData().withVersion(node[0]).forPath(path, data.getBytes(StandardCharsets.UTF_8));
          live.put(path, new int[] {stat.getVersion(), value});
          event("write", ",\"path\":" + q(path) + ",\"op\":\"set\",\"data\":" + q(data) + ",\"zxid\":" + q(Long.toString(stat.getMzxid())));
        } else {
          client.delete().withVersion(node[0]).forPath(path);
          live.remove(path);
          event("write", ",\"path\":" + q(path) + ",\"op\":\"delete\"");
        }
      } catch (Exception e) {
        live.remove(path);
        String name = e instanceof KeeperException ? ((KeeperException) e).code().name() : e.getClass().getSimpleName();
        event("write-unknown", ",\"path\":" + q(path) + ",\"error\":" + q(name));
      }
      sleep(100 + random.nextInt(250));
    }
  }

  public static void main(String[] args) throws Exception {
    proc = args[0];
    log = new FileWriter(args[2], StandardCharsets.UTF_8, true);
    int sessionTimeoutMs = Integer.parseInt(args[3]);
    random = new Random(Long.parseLong(args[4]));
    int leases = Integer.parseInt(args[5]);
    client = CuratorFrameworkFactory.newClient(args[1], sessionTimeoutMs, 3_000, new ExponentialBackoffRetry(100, 3, 1_000));
    client.getConnectionStateListenable().addListener((c, state) -> {
      if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) generation.incrementAndGet();
    });
    client.start();
    client.blockUntilConnected(30, TimeUnit.SECONDS);
    try {
      client.create().forPath(MARKS + "/" + proc);
    } catch (KeeperException.NodeExistsException e) {
      // a replayed run in the same ensemble: keep it
    }
    QueueSerializer<String> serializer = new QueueSerializer<String>() {
      public byte[] serialize(String item) {
        return item.getBytes(StandardCharsets.UTF_8);
      }

      public String deserialize(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
      }
    };
    QueueConsumer<String> consumer = new QueueConsumer<String>() {
      public void consumeMessage(String id) {
        event("consume", ",\"id\":" + q(id));
      }

      public void stateChanged(CuratorFramework c, ConnectionState state) {}
    };
    DistributedQueue<String> queue = QueueBuilder.builder(client, consumer, serializer, QUEUE).lockPath(QLOCKS).buildQueue();
    // Curator's put() only starts a background create and returns; putCompleted is called when the server
    // acknowledged it (and never when the create failed), so that is where a put counts as acknowledged.
    queue.getPutListenerContainer().addListener(new QueuePutListener<String>() {
      public void putCompleted(String id) {
        event("put", ",\"id\":" + q(id));
      }

      public void putMultiCompleted(MultiItem<String> items) {}
    });
    queue.start();
    List<Thread> load = new ArrayList<>();
    load.add(new Thread(SoakDriver::mutexLoop));
    load.add(new Thread(() -> semaphoreLoop(leases)));
    load.add(new Thread(SoakDriver::leaderLoop));
    load.add(new Thread(() -> produceLoop(queue)));
    load.add(new Thread(SoakDriver::writeLoop));
    for (Thread t : load) {
      t.setDaemon(true);
      t.start();
    }
    System.out.println("ready");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.equals("stop")) {
        stopping = true;
        for (Thread t : load) t.join(30_000);
        queue.flushPuts(10, TimeUnit.SECONDS);
        System.out.println("stopped");
        System.out.flush();
      } else if (line.equals("exit")) {
        break;
      }
    }
    stopping = true;
    try {
      queue.close();
      client.close();
    } finally {
      log.close();
      System.exit(0);
    }
  }
}
