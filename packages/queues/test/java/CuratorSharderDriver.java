// Drives Apache Curator's QueueSharder (of DistributedQueue<String>, put-only) for the interop tests.
//
//   <connect> <queuePath> <leaderPath> <threshold> <checkMs> <maxQueues>
//
// Starts the sharder and reads commands from stdin:
//   put <count> <prefix>   puts "<prefix>-<i>" one by one through getQueue(), printing "PUT\t<item>" for each,
//                          then "PUTDONE"
//   stop (or stdin closed) closes the sharder, prints "DONE" and exits
// Every 100 ms it prints "STATE\t<leader true|false>\t<shard paths, comma-separated>".
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.recipes.queue.QueueSharder;
import org.apache.curator.framework.recipes.queue.QueueSharderPolicies;
import org.apache.curator.retry.RetryNTimes;

public class CuratorSharderDriver {
  static final QueueSerializer<String> UTF8 = new QueueSerializer<String>() {
    public byte[] serialize(String item) { return item.getBytes(StandardCharsets.UTF_8); }
    public String deserialize(byte[] bytes) { return new String(bytes, StandardCharsets.UTF_8); }
  };

  static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  public static void main(String[] args) throws Exception {
    String connect = args[0], queuePath = args[1], leaderPath = args[2];
    QueueSharderPolicies policies = QueueSharderPolicies.builder()
        .newQueueThreshold(Integer.parseInt(args[3]))
        .thresholdCheckMs(Integer.parseInt(args[4]))
        .maxQueues(Integer.parseInt(args[5]))
        .build();
    CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 10000, 5000, new RetryNTimes(5, 200));
    client.start();
    client.blockUntilConnected();
    QueueSharder<String, DistributedQueue<String>> sharder = new QueueSharder<>(
        client,
        (c, path) -> QueueBuilder.builder(c, null, UTF8, path).buildQueue(),
        queuePath,
        leaderPath,
        policies);
    sharder.start();
    // The sharder's latch is private, so leadership is read from the election: the lowest node leads.
    Thread reporter = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          java.util.List<String> children = client.getChildren().forPath(leaderPath);
          TreeSet<String> sorted = new TreeSet<>((a, b) -> a.substring(a.lastIndexOf("latch-")).compareTo(b.substring(b.lastIndexOf("latch-"))));
          sorted.addAll(children);
          boolean leader = !sorted.isEmpty()
              && client.checkExists().forPath(leaderPath + "/" + sorted.first()).getEphemeralOwner()
                  == client.getZookeeperClient().getZooKeeper().getSessionId();
          say("STATE\t" + leader + "\t" + String.join(",", new TreeSet<>(sharder.getQueuePaths())));
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        } catch (Exception e) {
          say("ERROR\t" + e);
        }
      }
    });
    reporter.setDaemon(true);
    reporter.start();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
      String[] words = line.trim().split(" ");
      if (words[0].equals("put")) {
        int count = Integer.parseInt(words[1]);
        for (int i = 0; i < count; i++) {
          String item = words[2] + "-" + i;
          DistributedQueue<String> queue = sharder.getQueue();
          queue.put(item);
          queue.flushPuts(10, TimeUnit.SECONDS);
          say("PUT\t" + item);
        }
        say("PUTDONE");
      }
    }
    reporter.interrupt();
    sharder.close();
    client.close();
    say("DONE");
  }
}
