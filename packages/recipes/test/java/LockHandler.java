import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;

/**
 * Curator 5.4.0 locks for the interop tests. Lock objects are kept per actor and path, so an actor re-uses its
 * lock like one Java thread would.
 *
 * <pre>
 *   mutex.acquire path timeoutMs     -> true | false   (timeoutMs -1: wait forever)
 *   mutex.release path
 *   read.acquire / write.acquire path timeoutMs, read.release / write.release path
 *   sem.acquire path maxLeases timeoutMs -> lease node path | null
 *   sem.release path                 (returns every lease the actor holds there)
 *   incr path                        -> new value (unlocked read-modify-write of a decimal counter node)
 *   children path                    -> comma-separated child names
 *   mutex.cycle path n               -> elapsed ms for n uncontended acquire+release (for measurements)
 * </pre>
 */
public final class LockHandler implements DriverHandler {
    private CuratorFramework client;
    private final Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();
    private final Map<String, InterProcessReadWriteLock> rwLocks = new ConcurrentHashMap<>();
    private final Map<String, InterProcessSemaphoreV2> semaphores = new ConcurrentHashMap<>();
    private final Map<String, List<Lease>> leases = new ConcurrentHashMap<>();

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.client = client;
    }

    private static boolean acquire(InterProcessLock lock, String timeout) throws Exception {
        long ms = Long.parseLong(timeout);
        if (ms < 0) {
            lock.acquire();
            return true;
        }
        return lock.acquire(ms, TimeUnit.MILLISECONDS);
    }

    private InterProcessReadWriteLock rw(String actor, String path) {
        return rwLocks.computeIfAbsent(actor + "|" + path, k -> new InterProcessReadWriteLock(client, path));
    }

    @Override
    public String handle(String actor, String op, String[] args) throws Exception {
        String path = args.length > 0 ? args[0] : "";
        String key = actor + "|" + path;
        switch (op) {
            case "mutex.acquire":
                return String.valueOf(acquire(mutexes.computeIfAbsent(key, k -> new InterProcessMutex(client, path)), args[1]));
            case "mutex.release":
                mutexes.get(key).release();
                return "";
            case "read.acquire":
                return String.valueOf(acquire(rw(actor, path).readLock(), args[1]));
            case "read.release":
                rw(actor, path).readLock().release();
                return "";
            case "write.acquire":
                return String.valueOf(acquire(rw(actor, path).writeLock(), args[1]));
            case "write.release":
                rw(actor, path).writeLock().release();
                return "";
            case "sem.acquire": {
                int max = Integer.parseInt(args[1]);
                InterProcessSemaphoreV2 semaphore =
                    semaphores.computeIfAbsent(key, k -> new InterProcessSemaphoreV2(client, path, max));
                long ms = Long.parseLong(args[2]);
                Lease lease = ms < 0 ? semaphore.acquire() : semaphore.acquire(ms, TimeUnit.MILLISECONDS);
                if (lease == null) return "null";
                leases.computeIfAbsent(key, k -> new ArrayList<>()).add(lease);
                return lease.getNodeName();
            }
            case "sem.release": {
                List<Lease> held = leases.remove(key);
                if (held != null) semaphores.get(key).returnAll(held);
                return String.valueOf(held == null ? 0 : held.size());
            }
            case "incr": {
                byte[] data = client.getData().forPath(path);
                int next = Integer.parseInt(new String(data, StandardCharsets.UTF_8).trim()) + 1;
                Thread.sleep(2); // widen the window a lost update would need
                client.setData().forPath(path, String.valueOf(next).getBytes(StandardCharsets.UTF_8));
                return String.valueOf(next);
            }
            case "mutex.cycle": {
                InterProcessMutex mutex = mutexes.computeIfAbsent(key, k -> new InterProcessMutex(client, path));
                int n = Integer.parseInt(args[1]);
                long start = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    mutex.acquire();
                    mutex.release();
                }
                return String.valueOf((System.nanoTime() - start) / 1_000_000);
            }
            case "children": {
                Collection<String> children = client.getChildren().forPath(path);
                return String.join(",", children);
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
