import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.x.async.AsyncCuratorFramework;
import org.apache.curator.x.async.migrations.Migration;
import org.apache.curator.x.async.migrations.MigrationException;
import org.apache.curator.x.async.migrations.MigrationManager;
import org.apache.curator.x.async.migrations.MigrationSet;
import org.apache.curator.x.async.modeled.JacksonModelSerializer;
import org.apache.curator.x.async.modeled.ModelSpec;
import org.apache.curator.x.async.modeled.ModeledFramework;
import org.apache.curator.x.async.modeled.ZNode;
import org.apache.curator.x.async.modeled.ZPath;
import org.apache.curator.x.async.modeled.versioned.Versioned;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * curator-x-async's side of the modeled interop tests, one command per JVM:
 *   set PATH MAX OWNER RATIO         ModeledFramework.set of a Quota (JacksonModelSerializer)
 *   read PATH                        readAsZNode: MODEL max owner ratio version
 *   update PATH VERSION MAX OWNER RATIO   versioned().update: OK or BADVERSION
 *   migrate LOCKPATH METAPATH SETID LOCKMS MIGRATIONS   MigrationManager.migrate: OK or MISMATCH
 * MIGRATIONS: migrations separated by ";", ops by "|", an op as c,PATH,HEXDATA[,MODE] (create),
 * s,PATH,HEXDATA,VERSION (setData), d,PATH,VERSION (delete), k,PATH,VERSION (check).
 * Every command prints DONE last.
 */
public class ModeledDriver {
    /** The model: a plain object, as Jackson maps it (field order as declared). */
    public static class Quota {
        public int max;
        public String owner;
        public double ratio;

        public Quota() {}

        Quota(int max, String owner, double ratio) {
            this.max = max;
            this.owner = owner;
            this.ratio = ratio;
        }
    }

    public static void main(String[] args) throws Exception {
        String connect = args[0];
        String command = args[1];
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, new RetryOneTime(100))) {
            client.start();
            client.blockUntilConnected();
            AsyncCuratorFramework async = AsyncCuratorFramework.wrap(client);
            switch (command) {
                case "set": {
                    quotas(async, args[2]).set(quota(args, 3)).toCompletableFuture().get();
                    break;
                }
                case "read": {
                    ZNode<Quota> node = quotas(async, args[2]).readAsZNode().toCompletableFuture().get();
                    Quota q = node.model();
                    System.out.println("MODEL\t" + q.max + "\t" + q.owner + "\t" + q.ratio + "\t" + node.stat().getVersion());
                    break;
                }
                case "update": {
                    int version = Integer.parseInt(args[3]);
                    try {
                        quotas(async, args[2]).versioned().update(Versioned.from(quota(args, 4), version))
                                .toCompletableFuture().get();
                        System.out.println("OK");
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof KeeperException.BadVersionException)) throw e;
                        System.out.println("BADVERSION");
                    }
                    break;
                }
                case "migrate": {
                    MigrationManager manager = new MigrationManager(
                            async, args[2], args[3], ForkJoinPool.commonPool(), Duration.ofMillis(Long.parseLong(args[5])));
                    MigrationSet set = MigrationSet.build(args[4], migrations(async, args.length > 6 ? args[6] : ""));
                    try {
                        manager.migrate(set).toCompletableFuture().get();
                        System.out.println("OK");
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof MigrationException)) throw e;
                        System.out.println("MISMATCH\t" + e.getCause().getMessage());
                    }
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown command " + command);
            }
        }
        System.out.println("DONE");
    }

    static ModeledFramework<Quota> quotas(AsyncCuratorFramework async, String path) {
        ModelSpec<Quota> spec = ModelSpec.builder(ZPath.parseWithIds(path), JacksonModelSerializer.build(Quota.class))
                .build();
        return ModeledFramework.wrap(async, spec);
    }

    static Quota quota(String[] args, int from) {
        return new Quota(Integer.parseInt(args[from]), args[from + 1], Double.parseDouble(args[from + 2]));
    }

    static List<Migration> migrations(AsyncCuratorFramework async, String text) {
        List<Migration> migrations = new ArrayList<>();
        if (text.isEmpty()) return migrations;
        for (String migration : text.split(";")) {
            List<String> ops = Arrays.asList(migration.split("\\|"));
            // Built anew at each call, as a Migration's operations() may be called more than once.
            migrations.add(() -> {
                List<CuratorOp> built = new ArrayList<>();
                for (String op : ops) built.add(op(async, op.split(",", -1)));
                return built;
            });
        }
        return migrations;
    }

    static CuratorOp op(AsyncCuratorFramework async, String[] f) {
        switch (f[0]) {
            case "c":
                CreateMode mode = f.length > 3 ? CreateMode.valueOf(f[3]) : CreateMode.PERSISTENT;
                return async.transactionOp().create().withMode(mode).forPath(f[1], hex(f[2]));
            case "s":
                return async.transactionOp().setData().withVersion(Integer.parseInt(f[3])).forPath(f[1], hex(f[2]));
            case "d":
                return async.transactionOp().delete().withVersion(Integer.parseInt(f[2])).forPath(f[1]);
            case "k":
                return async.transactionOp().check().withVersion(Integer.parseInt(f[2])).forPath(f[1]);
            default:
                throw new IllegalArgumentException("unknown op " + f[0]);
        }
    }

    static byte[] hex(String text) {
        byte[] bytes = new byte[text.length() / 2];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        return bytes;
    }
}
