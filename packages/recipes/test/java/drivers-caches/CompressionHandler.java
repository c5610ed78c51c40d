// Curator 5.8+'s compressed data (CURATOR-725), driven through the shared DriverMain line protocol
// (../DriverMain.java): a second CuratorFramework on the same server built with enableCompression(), so every
// create, setData and getData it makes goes through Curator's GzipCompressionProvider, as in a service that
// turned compression on. Recipes are kept by the name the test gives them; data travels as UTF-8 words.
//
//   write <path> [data]            create-or-set (no data: empty, compressed as such), making parents (they get
//                                  no data at all), on the compressing client
//   read <path>                    the node's data, decompressed by the compressing client
//   raw <path>                     the node's bytes as stored (hex), read by the plain client
//   pnode.start <name> <path> <data>   a PERSISTENT PersistentNode on the compressing client (waits for it)
//   pnode.setdata <name> <data>        pnode.close <name>
//   cache.start <name> <path>      a CuratorCache with COMPRESSED_DATA on the compressing client (waits for init)
//   cache.data <name> <path>       the cached data (UTF-8), or "none" when the path is not cached
//   cache.close <name>
//   count.start <name> <path> <seed>   a SharedCount on the compressing client     count.get <name>
//   count.set <name> <n>               count.close <name>
//   group.join <name> <path> <id> <payload>   a GroupMember on the compressing client
//   group.members <name>               "id=payload" sorted, joined by ","             group.close <name>
//   latch.start <name> <path> <id>     a LeaderLatch on the compressing client (waits until its node is in)
//   latch.participants <name>          the ids in line, the leader's marked "*", joined by ","
//   latch.close <name>
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.framework.recipes.nodes.GroupMember;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.recipes.shared.SharedCount;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;

public final class CompressionHandler implements DriverHandler {
    private CuratorFramework plain;
    private CuratorFramework compressing;
    private final Map<String, Object> recipes = new ConcurrentHashMap<>();

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.plain = client;
        compressing = CuratorFrameworkFactory.builder()
            .connectString(client.getZookeeperClient().getCurrentConnectionString())
            .retryPolicy(new ExponentialBackoffRetry(100, 5))
            .enableCompression()
            .build();
        compressing.start();
    }

    @SuppressWarnings("unchecked")
    private <T> T recipe(String name) {
        Object recipe = recipes.get(name);
        if (recipe == null) throw new IllegalArgumentException("no recipe named " + name);
        return (T) recipe;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String hex(byte[] data) {
        StringBuilder out = new StringBuilder();
        for (byte b : data) out.append(String.format("%02x", b));
        return out.toString();
    }

    @Override
    public String handle(String actor, String op, String[] a) throws Exception {
        compressing.blockUntilConnected(15, TimeUnit.SECONDS);
        switch (op) {
            case "write":
                compressing.create().orSetData().creatingParentsIfNeeded().forPath(a[0], a.length > 1 ? utf8(a[1]) : new byte[0]);
                return "";
            case "read":
                return new String(compressing.getData().forPath(a[0]), StandardCharsets.UTF_8);
            case "raw":
                return hex(plain.getData().forPath(a[0]));
            case "pnode.start": {
                PersistentNode node = new PersistentNode(compressing, CreateMode.PERSISTENT, false, a[1], utf8(a[2]));
                recipes.put(a[0], node);
                node.start();
                if (!node.waitForInitialCreate(15, TimeUnit.SECONDS)) throw new IllegalStateException("not created");
                return "";
            }
            case "pnode.setdata":
                this.<PersistentNode>recipe(a[0]).setData(utf8(a[1]));
                return "";
            case "pnode.close":
                ((PersistentNode) recipes.remove(a[0])).close();
                return "";
            case "cache.start": {
                CountDownLatch initialized = new CountDownLatch(1);
                CuratorCache cache = CuratorCache.build(compressing, a[1], CuratorCache.Options.COMPRESSED_DATA);
                cache.listenable().addListener(CuratorCacheListener.builder().forInitialized(initialized::countDown).build());
                recipes.put(a[0], cache);
                cache.start();
                if (!initialized.await(15, TimeUnit.SECONDS)) throw new IllegalStateException("not initialized");
                return "";
            }
            case "cache.data": {
                Optional<ChildData> data = this.<CuratorCache>recipe(a[0]).get(a[1]);
                return data.map(d -> new String(d.getData(), StandardCharsets.UTF_8)).orElse("none");
            }
            case "cache.close":
                ((CuratorCache) recipes.remove(a[0])).close();
                return "";
            case "count.start": {
                SharedCount count = new SharedCount(compressing, a[1], Integer.parseInt(a[2]));
                recipes.put(a[0], count);
                count.start();
                return "";
            }
            case "count.get":
                return String.valueOf(this.<SharedCount>recipe(a[0]).getCount());
            case "count.set":
                this.<SharedCount>recipe(a[0]).setCount(Integer.parseInt(a[1]));
                return "";
            case "count.close":
                ((SharedCount) recipes.remove(a[0])).close();
                return "";
            case "group.join": {
                GroupMember member = new GroupMember(compressing, a[1], a[2], utf8(a[3]));
                recipes.put(a[0], member);
                member.start();
                return "";
            }
            case "group.members": {
                Map<String, String> sorted = new TreeMap<>();
                for (Map.Entry<String, byte[]> e : this.<GroupMember>recipe(a[0]).getCurrentMembers().entrySet()) {
                    sorted.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
                }
                return sorted.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
            }
            case "latch.start": {
                LeaderLatch latch = new LeaderLatch(compressing, a[1], a[2]);
                recipes.put(a[0], latch);
                latch.start();
                for (int i = 0; i < 150 && latch.getOurPath() == null; i++) Thread.sleep(100);
                if (latch.getOurPath() == null) throw new IllegalStateException("no latch node");
                return "";
            }
            case "latch.participants":
                return this.<LeaderLatch>recipe(a[0]).getParticipants().stream()
                    .map((Participant p) -> p.getId() + (p.isLeader() ? "*" : ""))
                    .collect(Collectors.joining(","));
            case "latch.close":
                ((LeaderLatch) recipes.remove(a[0])).close();
                return "";
            case "group.close":
                ((GroupMember) recipes.remove(a[0])).close();
                return "";
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
