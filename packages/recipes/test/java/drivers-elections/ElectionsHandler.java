// Curator's LeaderLatch, DistributedDoubleBarrier, SharedCount and DistributedAtomicLong (any 5.x), driven through
// the shared DriverMain line protocol (../DriverMain.java). Recipes are kept by the name the test gives them; the
// actor only picks the thread a request runs on, so a blocking call (await, enter, leave) gets its own actor.
//
//   latch.start <name> <path> <id>     latch.await <name> <ms>   latch.has <name>   latch.leader <name>
//   latch.participants <name>          latch.path <name>         latch.close <name>
//   dbarrier.new <name> <path> <qty>   dbarrier.enter <name> <ms>                   dbarrier.leave <name> <ms>
//   count.start <name> <path> <seed>   count.get <name>  count.set <name> <n>       count.tryset <name> <n>
//   count.versioned <name>             count.close <name>
//   along.new <name> <path>            along.get <name>  along.add <name> <delta>   along.cas <name> <exp> <new>
//   selector.start <name> <path> <id>  selector.yield <name>     selector.has <name>  selector.leader <name>
//   selector.participants <name>       selector.close <name>
//   data <path>                        (the node's bytes as hex)
//   watch <path>                       (arms a one-shot exists watch on path; its event is reported)
//
// Events: "latch <name> isLeader|notLeader", "count <name> <value>", "selector <name> leading|done",
// "watched <path>" (a watch armed by `watch` fired: this session has received every earlier event too).
// A selector auto-requeues; each term lasts until the test sends selector.yield.
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.LeaderSelector;
import org.apache.curator.framework.recipes.leader.LeaderSelectorListenerAdapter;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.framework.recipes.shared.SharedCount;
import org.apache.curator.framework.recipes.shared.SharedCountListener;
import org.apache.curator.framework.recipes.shared.SharedCountReader;
import org.apache.curator.framework.recipes.shared.VersionedValue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryNTimes;

public final class ElectionsHandler implements DriverHandler {
    private final Map<String, Object> recipes = new ConcurrentHashMap<>();
    private CuratorFramework client;
    private DriverMain driver;

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.client = client;
        this.driver = driver;
    }

    @SuppressWarnings("unchecked")
    private <T> T recipe(String name) {
        Object recipe = recipes.get(name);
        if (recipe == null) throw new IllegalArgumentException("no recipe named " + name);
        return (T) recipe;
    }

    private static String ids(Collection<Participant> participants) {
        List<String> ids = new ArrayList<>();
        for (Participant p : participants) ids.add((p.isLeader() ? "*" : "") + p.getId());
        return String.join(",", ids);
    }

    private static String atomic(AtomicValue<Long> value) {
        return value.succeeded() + " " + value.preValue() + " " + value.postValue();
    }

    @Override
    public String handle(String actor, String op, String[] a) throws Exception {
        String name = a.length > 0 ? a[0] : "";
        switch (op) {
            case "latch.start": {
                LeaderLatch latch = new LeaderLatch(client, a[1], a.length > 2 ? a[2] : "");
                latch.addListener(new LeaderLatchListener() {
                    public void isLeader() { driver.event("latch " + name + " isLeader"); }
                    public void notLeader() { driver.event("latch " + name + " notLeader"); }
                });
                recipes.put(name, latch);
                latch.start();
                return "";
            }
            case "latch.await":
                return String.valueOf(((LeaderLatch) recipe(name)).await(Long.parseLong(a[1]), TimeUnit.MILLISECONDS));
            case "latch.has": return String.valueOf(((LeaderLatch) recipe(name)).hasLeadership());
            case "latch.leader": return ((LeaderLatch) recipe(name)).getLeader().getId();
            case "latch.participants": return ids(((LeaderLatch) recipe(name)).getParticipants());
            case "latch.path": return ((LeaderLatch) recipe(name)).getOurPath();
            case "latch.close":
                ((LeaderLatch) recipes.remove(name)).close(LeaderLatch.CloseMode.NOTIFY_LEADER);
                return "";
            case "selector.start": {
                Semaphore yieldPermits = new Semaphore(0);
                LeaderSelector selector = new LeaderSelector(client, a[1], new LeaderSelectorListenerAdapter() {
                    @Override
                    public void takeLeadership(CuratorFramework c) throws Exception {
                        driver.event("selector " + name + " leading");
                        try {
                            yieldPermits.acquire();
                        } finally {
                            driver.event("selector " + name + " done");
                        }
                    }
                });
                selector.setId(a[2]);
                selector.autoRequeue();
                recipes.put(name, selector);
                recipes.put(name + ".yield", yieldPermits);
                selector.start();
                return "";
            }
            case "selector.yield":
                ((Semaphore) recipe(name + ".yield")).release();
                return "";
            case "selector.has": return String.valueOf(((LeaderSelector) recipe(name)).hasLeadership());
            case "selector.leader": return ((LeaderSelector) recipe(name)).getLeader().getId();
            case "selector.participants": return ids(((LeaderSelector) recipe(name)).getParticipants());
            case "selector.close":
                recipes.remove(name + ".yield");
                ((LeaderSelector) recipes.remove(name)).close();
                return "";
            case "dbarrier.new":
                recipes.put(name, new DistributedDoubleBarrier(client, a[1], Integer.parseInt(a[2])));
                return "";
            case "dbarrier.enter":
                return String.valueOf(((DistributedDoubleBarrier) recipe(name)).enter(Long.parseLong(a[1]), TimeUnit.MILLISECONDS));
            case "dbarrier.leave":
                return String.valueOf(((DistributedDoubleBarrier) recipe(name)).leave(Long.parseLong(a[1]), TimeUnit.MILLISECONDS));
            case "count.start": {
                SharedCount count = new SharedCount(client, a[1], Integer.parseInt(a[2]));
                count.addListener(new SharedCountListener() {
                    public void countHasChanged(SharedCountReader reader, int value) { driver.event("count " + name + " " + value); }
                    public void stateChanged(CuratorFramework c, ConnectionState state) {}
                });
                recipes.put(name, count);
                count.start();
                return String.valueOf(count.getCount());
            }
            case "count.get": return String.valueOf(((SharedCount) recipe(name)).getCount());
            case "count.set":
                ((SharedCount) recipe(name)).setCount(Integer.parseInt(a[1]));
                return "";
            case "count.versioned": {
                VersionedValue<Integer> value = ((SharedCount) recipe(name)).getVersionedValue();
                return value.getValue() + " " + value.getVersion();
            }
            case "count.tryset": {
                // Compare-and-set against the value and version this side saw last.
                SharedCount count = recipe(name);
                return String.valueOf(count.trySetCount(count.getVersionedValue(), Integer.parseInt(a[1])));
            }
            case "count.close":
                ((SharedCount) recipes.remove(name)).close();
                return "";
            case "along.new":
                recipes.put(name, new DistributedAtomicLong(client, a[1], new RetryNTimes(20, 10)));
                return "";
            case "along.get": return atomic(((DistributedAtomicLong) recipe(name)).get());
            case "along.add": return atomic(((DistributedAtomicLong) recipe(name)).add(Long.parseLong(a[1])));
            case "along.cas":
                return atomic(((DistributedAtomicLong) recipe(name)).compareAndSet(Long.parseLong(a[1]), Long.parseLong(a[2])));
            case "data": {
                StringBuilder hex = new StringBuilder();
                for (byte b : client.getData().forPath(a[0])) hex.append(String.format("%02x", b));
                return hex.toString();
            }
            case "watch": {
                CuratorWatcher reporter = event -> driver.event("watched " + event.getPath());
                client.checkExists().usingWatcher(reporter).forPath(a[0]);
                return "";
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
