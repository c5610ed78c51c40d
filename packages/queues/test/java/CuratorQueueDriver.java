// Drives Apache Curator's queues from the command line for the interop tests.
//
//   put      <connect> <path> <kind> <arg>=<text>...    one put per item (kind: plain|priority|delay|id;
//                                                      arg: ignored | priority | due epoch ms | id)
//   putMulti <connect> <path> <kind> <arg> <text>...   one putMulti with all the texts (kind: plain|priority|delay)
//   consume  <connect> <path> <kind> <count> [lockPath] prints "ITEM\t<text>\t<epoch ms>" per item, then "DONE"
//
// Items are UTF-8 strings. Prints "READY" once connected, so a test can time its side against it.
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.queue.DistributedDelayQueue;
import org.apache.curator.framework.recipes.queue.DistributedIdQueue;
import org.apache.curator.framework.recipes.queue.DistributedPriorityQueue;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.MultiItem;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;

public class CuratorQueueDriver {
  static final QueueSerializer<String> UTF8 = new QueueSerializer<String>() {
    public byte[] serialize(String item) { return item.getBytes(StandardCharsets.UTF_8); }
    public String deserialize(byte[] bytes) { return new String(bytes, StandardCharsets.UTF_8); }
  };

  public static void main(String[] args) throws Exception {
    String connect = args[0], command = args[1], path = args[2], kind = args[3];
    List<String> rest = Arrays.asList(args).subList(4, args.length);
    CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 10000, 5000, new RetryNTimes(5, 200));
    client.start();
    client.blockUntilConnected();
    System.out.println("READY");
    System.out.flush();
    try {
      switch (command) {
        case "put": put(client, path, kind, rest); break;
        case "putMulti": putMulti(client, path, kind, rest.get(0), rest.subList(1, rest.size())); break;
        case "consume": consume(client, path, kind, Integer.parseInt(rest.get(0)), rest.size() > 1 ? rest.get(1) : null); break;
        default: throw new IllegalArgumentException("unknown command " + command);
      }
    } finally {
      client.close();
    }
    System.out.println("DONE");
    System.out.flush();
  }

  static MultiItem<String> multi(List<String> texts) {
    Iterator<String> it = new ArrayList<>(texts).iterator();
    return () -> it.hasNext() ? it.next() : null;
  }

  static void put(CuratorFramework client, String path, String kind, List<String> specs) throws Exception {
    QueueBuilder<String> builder = QueueBuilder.builder(client, null, UTF8, path);
    for (String spec : specs) {
      int eq = spec.indexOf('=');
      String arg = spec.substring(0, eq), text = spec.substring(eq + 1);
      switch (kind) {
        case "plain": { DistributedQueue<String> q = builder.buildQueue(); q.start(); q.put(text); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
        case "priority": { DistributedPriorityQueue<String> q = builder.buildPriorityQueue(1); q.start(); q.put(text, Integer.parseInt(arg)); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
        case "delay": { DistributedDelayQueue<String> q = builder.buildDelayQueue(); q.start(); q.put(text, Long.parseLong(arg)); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
        case "id": { DistributedIdQueue<String> q = builder.buildIdQueue(); q.start(); q.put(text, arg); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
        default: throw new IllegalArgumentException("unknown kind " + kind);
      }
    }
  }

  static void putMulti(CuratorFramework client, String path, String kind, String arg, List<String> texts) throws Exception {
    QueueBuilder<String> builder = QueueBuilder.builder(client, null, UTF8, path);
    switch (kind) {
      case "plain": { DistributedQueue<String> q = builder.buildQueue(); q.start(); q.putMulti(multi(texts)); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
      case "priority": { DistributedPriorityQueue<String> q = builder.buildPriorityQueue(1); q.start(); q.putMulti(multi(texts), Integer.parseInt(arg)); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
      case "delay": { DistributedDelayQueue<String> q = builder.buildDelayQueue(); q.start(); q.putMulti(multi(texts), Long.parseLong(arg)); q.flushPuts(10, TimeUnit.SECONDS); q.close(); break; }
      default: throw new IllegalArgumentException("putMulti does not exist for kind " + kind);
    }
  }

  static void consume(CuratorFramework client, String path, String kind, int count, String lockPath) throws Exception {
    CountDownLatch latch = new CountDownLatch(count);
    QueueConsumer<String> consumer = new QueueConsumer<String>() {
      public void consumeMessage(String message) {
        synchronized (System.out) {
          System.out.println("ITEM\t" + message + "\t" + System.currentTimeMillis());
          System.out.flush();
        }
        latch.countDown();
      }
      public void stateChanged(CuratorFramework c, ConnectionState state) {}
    };
    QueueBuilder<String> builder = QueueBuilder.builder(client, consumer, UTF8, path);
    if (lockPath != null) builder = builder.lockPath(lockPath);
    java.io.Closeable queue;
    switch (kind) {
      case "plain": { DistributedQueue<String> q = builder.buildQueue(); q.start(); queue = q; break; }
      case "priority": { DistributedPriorityQueue<String> q = builder.buildPriorityQueue(1); q.start(); queue = q; break; }
      case "delay": { DistributedDelayQueue<String> q = builder.buildDelayQueue(); q.start(); queue = q; break; }
      case "id": { DistributedIdQueue<String> q = builder.buildIdQueue(); q.start(); queue = q; break; }
      default: throw new IllegalArgumentException("unknown kind " + kind);
    }
    boolean all = latch.await(60, TimeUnit.SECONDS);
    queue.close();
    if (!all) throw new IllegalStateException("timed out with " + latch.getCount() + " items missing");
  }
}
