// Curator's distributed atomics with PromotedToLock, and CachedAtomicLong/CachedAtomicInteger, driven through the
// shared DriverMain line protocol (../DriverMain.java). Recipes are kept by the name the test gives them.
//
//   long.new <name> <path> <retries> <sleepMs>                      (optimistic mode only)
//   long.promoted <name> <path> <retries> <sleepMs> <lockPath> <lockRetries> <lockSleepMs> <lockTimeoutMs>
//                                                                   (lockTimeoutMs -1: no timeout, Curator's default)
//   long.increments <name> <times>  -> "<succeeded> <optimisticTries> <promotedTries>" summed over the increments
//   long.get <name>                 -> the value, decimal
//   int.new <name> <path> <retries> <sleepMs>
//   cached.long <name> <longName> <cacheFactor>     cached.int <name> <intName> <cacheFactor>
//   cached.next <name> <times>      -> the ids handed out (each result's preValue), comma-separated;
//                                      fails when a next() did not succeed
//   mutex.acquire <path>  /  mutex.release <path>   (an InterProcessMutex per actor and path)
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.CachedAtomicInteger;
import org.apache.curator.framework.recipes.atomic.CachedAtomicLong;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicInteger;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.atomic.PromotedToLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryNTimes;

public final class AtomicHandler implements DriverHandler {
    private final Map<String, Object> recipes = new ConcurrentHashMap<>();
    private final Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();
    private CuratorFramework client;

    @Override
    public void init(CuratorFramework client, DriverMain driver) {
        this.client = client;
    }

    @SuppressWarnings("unchecked")
    private <T> T recipe(String name) {
        Object recipe = recipes.get(name);
        if (recipe == null) throw new IllegalArgumentException("no recipe named " + name);
        return (T) recipe;
    }

    private static RetryNTimes retry(String times, String sleepMs) {
        return new RetryNTimes(Integer.parseInt(times), Integer.parseInt(sleepMs));
    }

    @Override
    public String handle(String actor, String op, String[] a) throws Exception {
        switch (op) {
            case "long.new":
                recipes.put(a[0], new DistributedAtomicLong(client, a[1], retry(a[2], a[3])));
                return "";
            case "long.promoted": {
                PromotedToLock.Builder promotion = PromotedToLock.builder().lockPath(a[4]).retryPolicy(retry(a[5], a[6]));
                long timeoutMs = Long.parseLong(a[7]);
                if (timeoutMs >= 0) promotion.timeout(timeoutMs, TimeUnit.MILLISECONDS);
                recipes.put(a[0], new DistributedAtomicLong(client, a[1], retry(a[2], a[3]), promotion.build()));
                return "";
            }
            case "long.increments": {
                DistributedAtomicLong number = recipe(a[0]);
                int times = Integer.parseInt(a[1]);
                long succeeded = 0, optimistic = 0, promoted = 0;
                for (int i = 0; i < times; i++) {
                    AtomicValue<Long> result = number.increment();
                    if (result.succeeded()) succeeded++;
                    optimistic += result.getStats().getOptimisticTries();
                    promoted += result.getStats().getPromotedLockTries();
                }
                return succeeded + " " + optimistic + " " + promoted;
            }
            case "long.get":
                return String.valueOf(((DistributedAtomicLong) recipe(a[0])).get().postValue());
            case "int.new":
                recipes.put(a[0], new DistributedAtomicInteger(client, a[1], retry(a[2], a[3])));
                return "";
            case "cached.long":
                recipes.put(a[0], new CachedAtomicLong(recipe(a[1]), Integer.parseInt(a[2])));
                return "";
            case "cached.int":
                recipes.put(a[0], new CachedAtomicInteger(recipe(a[1]), Integer.parseInt(a[2])));
                return "";
            case "cached.next": {
                Object cached = recipe(a[0]);
                int times = Integer.parseInt(a[1]);
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < times; i++) {
                    AtomicValue<? extends Number> result = cached instanceof CachedAtomicLong
                        ? ((CachedAtomicLong) cached).next()
                        : ((CachedAtomicInteger) cached).next();
                    if (!result.succeeded()) throw new IllegalStateException("next() did not succeed after " + ids);
                    ids.add(String.valueOf(result.preValue()));
                }
                return String.join(",", ids);
            }
            case "mutex.acquire":
                mutexes.computeIfAbsent(actor + " " + a[0], key -> new InterProcessMutex(client, a[0])).acquire();
                return "";
            case "mutex.release":
                mutexes.get(actor + " " + a[0]).release();
                return "";
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
