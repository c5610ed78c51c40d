// Curator's PersistentNode and PersistentTtlNode (any 5.x), driven through the shared DriverMain line protocol
// (../DriverMain.java). Recipes are kept by the name the test gives them. Data travels as UTF-8 words.
//
//   pnode.start <name> <mode> <protect> <path> <data>   (mode: a CreateMode name; protect: true|false;
//                                                        waits up to 15 s for the initial create; replies the path)
//   pnode.path <name>        pnode.setdata <name> <data>        pnode.close <name>
//   ttl.start <name> <path> <ttlMs> <data>              ttl.close <name>
//   data <path>              (the node's data as UTF-8)
//   owner <path>             (the Stat's ephemeralOwner, decimal)
//   version <path>           (the Stat's data version)
//   delete <path>            children <path>  (comma-separated, sorted)
//   protected <name>         ("true <normalized>" or "false": ProtectedUtils on a node name)
//
// Events: "created <name> <path>" (PersistentNodeListener.nodeCreated).
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.recipes.nodes.PersistentTtlNode;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

public final class NodesHandler implements DriverHandler {
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

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * How long a node's first create may take (Curator creates in the background). A failure says what the
     * server had: when CI once saw "connected, parent missing", the create had been lost by Curator 5.4.0
     * itself (CURATOR-677: a container ancestor reaped while it makes the parents), not delayed.
     */
    private static final int CREATE_WAIT_SECONDS = 15;

    private IllegalStateException notCreated(String path) {
        String parent = path.substring(0, Math.max(1, path.lastIndexOf('/')));
        String seen;
        try {
            seen = client.getChildren().forPath(parent).toString();
        } catch (Exception e) {
            seen = "unreadable (" + e + ")";
        }
        return new IllegalStateException("not created within " + CREATE_WAIT_SECONDS + " s; connected="
            + client.getZookeeperClient().isConnected() + ", children of " + parent + ": " + seen);
    }

    private Stat stat(String path) throws Exception {
        Stat stat = client.checkExists().forPath(path);
        if (stat == null) throw new IllegalStateException("no node " + path);
        return stat;
    }

    @Override
    public String handle(String actor, String op, String[] a) throws Exception {
        String name = a.length > 0 ? a[0] : "";
        switch (op) {
            case "pnode.start": {
                PersistentNode node = new PersistentNode(client, CreateMode.valueOf(a[1]), Boolean.parseBoolean(a[2]), a[3], utf8(a[4]));
                node.getListenable().addListener(path -> driver.event("created " + name + " " + path));
                recipes.put(name, node);
                node.start();
                if (!node.waitForInitialCreate(CREATE_WAIT_SECONDS, TimeUnit.SECONDS)) throw notCreated(a[3]);
                return node.getActualPath();
            }
            case "pnode.path":
                return String.valueOf(this.<PersistentNode>recipe(name).getActualPath());
            case "pnode.setdata":
                this.<PersistentNode>recipe(name).setData(utf8(a[1]));
                return "";
            case "pnode.close":
                this.<PersistentNode>recipe(name).close();
                recipes.remove(name);
                return "";
            case "ttl.start": {
                PersistentTtlNode node = new PersistentTtlNode(client, a[1], Long.parseLong(a[2]), utf8(a[3]));
                recipes.put(name, node);
                node.start();
                if (!node.waitForInitialCreate(CREATE_WAIT_SECONDS, TimeUnit.SECONDS)) throw notCreated(a[1]);
                return "";
            }
            case "ttl.close":
                this.<PersistentTtlNode>recipe(name).close();
                recipes.remove(name);
                return "";
            case "data":
                return new String(client.getData().forPath(a[0]), StandardCharsets.UTF_8);
            case "owner":
                return Long.toString(stat(a[0]).getEphemeralOwner());
            case "version":
                return Integer.toString(stat(a[0]).getVersion());
            case "delete":
                client.delete().forPath(a[0]);
                return "";
            case "children": {
                List<String> children = client.getChildren().forPath(a[0]);
                return String.join(",", new TreeSet<>(children));
            }
            case "protected":
                return ProtectedUtils.isProtectedZNode(a[0]) ? "true " + ProtectedUtils.normalize(a[0]) : "false";
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
