import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.Revoker;

/**
 * Curator lock revocation (Revoker, makeRevocable) for the interop tests. Mutexes are kept per actor and path (one Java thread
 * each, as Curator's mutex is owned by a thread).
 *
 * <pre>
 *   rmutex.acquire path timeoutMs -> true | false   a revocable mutex: a revocation request sends the event
 *                                                   "revoke actor path"; the test then releases it
 *   mutex.acquire path timeoutMs  -> true | false   a plain mutex
 *   release path                                    releases the actor's mutex at path
 *   revoke nodePath                                 Revoker.attemptRevoke
 *   participants path             -> comma-separated participant node paths
 * </pre>
 */
public final class RevocationHandler implements DriverHandler {
    private CuratorFramework client;
    private DriverMain driver;
    private final Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.client = client;
        this.driver = driver;
    }

    private static boolean acquire(InterProcessMutex lock, String timeout) throws Exception {
        long ms = Long.parseLong(timeout);
        if (ms < 0) {
            lock.acquire();
            return true;
        }
        return lock.acquire(ms, TimeUnit.MILLISECONDS);
    }

    @Override
    public String handle(String actor, String op, String[] args) throws Exception {
        String path = args.length > 0 ? args[0] : "";
        String key = actor + "|" + path;
        switch (op) {
            case "rmutex.acquire": {
                InterProcessMutex mutex = mutexes.computeIfAbsent(key, k -> {
                    InterProcessMutex revocable = new InterProcessMutex(client, path);
                    revocable.makeRevocable(lock -> driver.event("revoke " + actor + " " + path));
                    return revocable;
                });
                return String.valueOf(acquire(mutex, args[1]));
            }
            case "mutex.acquire":
                return String.valueOf(acquire(mutexes.computeIfAbsent(key, k -> new InterProcessMutex(client, path)), args[1]));
            case "release":
                mutexes.get(key).release();
                return "";
            case "revoke":
                Revoker.attemptRevoke(client, path);
                return "";
            case "participants":
                return String.join(",", new InterProcessMutex(client, path).getParticipantNodes());
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
