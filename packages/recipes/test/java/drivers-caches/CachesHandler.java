// Curator's CuratorCache and GroupMember (any 5.x), driven through the shared DriverMain line protocol
// (../DriverMain.java). Caches and members are kept by the name the test gives them.
//
//   cache.start <name> <path>     cache.await <name> <ms>   (true once initialized)
//   cache.events <name>           every event so far, comma-separated: "created /p", "changed /p",
//                                 "deleted /p", "initialized"
//   cache.state <name>            every cached node, sorted: "path:version:hexdata" joined by ";"
//   cache.close <name>
//   group.join <name> <path> <id> <payload>     group.members <name> ("id=payload" sorted, joined by ",")
//   group.set <name> <payload>                  group.close <name>
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.nodes.GroupMember;

public final class CachesHandler implements DriverHandler {
    private CuratorFramework client;
    private final Map<String, CuratorCache> caches = new ConcurrentHashMap<>();
    private final Map<String, List<String>> events = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> initialized = new ConcurrentHashMap<>();
    private final Map<String, GroupMember> members = new ConcurrentHashMap<>();

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.client = client;
    }

    private static String typeName(CuratorCacheListener.Type type) {
        switch (type) {
            case NODE_CREATED: return "created";
            case NODE_CHANGED: return "changed";
            default: return "deleted";
        }
    }

    private static String hex(byte[] data) {
        if (data == null) return ""; // a null buffer on the wire; the Node client reads it as empty bytes
        StringBuilder out = new StringBuilder();
        for (byte b : data) out.append(String.format("%02x", b));
        return out.toString();
    }

    @Override
    public String handle(String actor, String op, String[] args) throws Exception {
        switch (op) {
            case "cache.start": {
                List<String> seen = Collections.synchronizedList(new ArrayList<>());
                CountDownLatch latch = new CountDownLatch(1);
                CuratorCache cache = CuratorCache.build(client, args[1]);
                cache.listenable().addListener(CuratorCacheListener.builder()
                    .forAll((type, oldData, data) ->
                        seen.add(typeName(type) + " " + (data != null ? data.getPath() : oldData.getPath())))
                    .forInitialized(() -> {
                        seen.add("initialized");
                        latch.countDown();
                    })
                    .build());
                events.put(args[0], seen);
                initialized.put(args[0], latch);
                caches.put(args[0], cache);
                cache.start();
                return "";
            }
            case "cache.await":
                return String.valueOf(initialized.get(args[0]).await(Long.parseLong(args[1]), TimeUnit.MILLISECONDS));
            case "cache.events": {
                List<String> seen = events.get(args[0]);
                synchronized (seen) {
                    return String.join(",", seen);
                }
            }
            case "cache.state":
                return caches.get(args[0]).stream()
                    .sorted((a, b) -> a.getPath().compareTo(b.getPath()))
                    .map((ChildData d) -> d.getPath() + ":" + d.getStat().getVersion() + ":" + hex(d.getData()))
                    .collect(Collectors.joining(";"));
            case "cache.close":
                caches.remove(args[0]).close();
                return "";
            case "group.join": {
                GroupMember member =
                    new GroupMember(client, args[1], args[2], args[3].getBytes(StandardCharsets.UTF_8));
                members.put(args[0], member);
                member.start();
                return "";
            }
            case "group.members": {
                Map<String, String> sorted = new TreeMap<>();
                for (Map.Entry<String, byte[]> e : members.get(args[0]).getCurrentMembers().entrySet()) {
                    sorted.put(e.getKey(), new String(e.getValue(), StandardCharsets.UTF_8));
                }
                return sorted.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
            }
            case "group.set":
                members.get(args[0]).setThisData(args[1].getBytes(StandardCharsets.UTF_8));
                return "";
            case "group.close":
                members.remove(args[0]).close();
                return "";
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
