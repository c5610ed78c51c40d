import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.x.discovery.ServiceCache;
import org.apache.curator.x.discovery.ServiceDiscovery;
import org.apache.curator.x.discovery.ServiceDiscoveryBuilder;
import org.apache.curator.x.discovery.ServiceInstance;
import org.apache.curator.x.discovery.ServiceProvider;
import org.apache.curator.x.discovery.ServiceType;
import org.apache.curator.x.discovery.UriSpec;
import org.apache.curator.x.discovery.details.JsonInstanceSerializer;
import org.apache.curator.x.discovery.details.ServiceCacheListener;

/**
 * Drives Curator's curator-x-discovery (5.4.0 to 5.9.0; the 5.6+ and 5.8+ options by reflection) from a test,
 * over stdin/stdout lines.
 *
 * <pre>
 *   args:      connectString basePath [sessionTimeoutMs [layout [compression]]]
 *              layout: "standard" (default, instances under basePath/name) or "instances-child" (a
 *              DiscoveryPathConstructor, Curator 5.6+: instances under basePath/name/instances)
 *              compression: "plain" (default) or "gzip" (the client built with enableCompression(), 5.8+)
 *   startup:   prints "ready" once connected and the discoveries are started
 *   request:   id op arg...        (words separated by single spaces)
 *   response:  id ok result | id err message
 *   event:     ! text              (cache changes)
 * </pre>
 *
 * Three discoveries share one client and base path, one per payload class the tests use: Map, Details and
 * Object (whatever "@class" names). The JVM exits when stdin closes, closing everything first.
 */
public final class DiscoveryDriver {
    private static final ObjectMapper PLAIN = new ObjectMapper();
    private final CuratorFramework client;
    private final ServiceDiscovery<Map> maps;
    private final ServiceDiscovery<Details> details;
    private final ServiceDiscovery<Object> objects;
    private final Map<String, ServiceCache<Object>> caches = new ConcurrentHashMap<>();
    private final Map<String, ServiceProvider<Map>> providers = new ConcurrentHashMap<>();

    private DiscoveryDriver(CuratorFramework client, String basePath, String layout) throws Exception {
        this.client = client;
        maps = laidOut(ServiceDiscoveryBuilder.builder(Map.class).client(client), basePath, layout).build();
        details = laidOut(ServiceDiscoveryBuilder.builder(Details.class).client(client), basePath, layout).build();
        objects = laidOut(ServiceDiscoveryBuilder.builder(Object.class).client(client), basePath, layout).build();
        maps.start();
        details.start();
        objects.start();
    }

    /**
     * The builder with its layout: Curator's standard one under basePath, or "instances-child", the layout of
     * Curator's own testCustomPathConstructor (names under basePath, instances under basePath/name/instances)
     * through a DiscoveryPathConstructor. That interface is new in 5.6, so it is reached by reflection and this
     * file still compiles against 5.4.
     */
    private static <T> ServiceDiscoveryBuilder<T> laidOut(
            ServiceDiscoveryBuilder<T> builder, String basePath, String layout) throws Exception {
        if (layout.equals("standard")) return builder.basePath(basePath);
        if (!layout.equals("instances-child")) throw new IllegalArgumentException("unknown layout " + layout);
        Class<?> type = Class.forName("org.apache.curator.x.discovery.DiscoveryPathConstructor");
        Object constructor = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, a) -> {
            switch (method.getName()) {
                case "getBasePath": return basePath;
                case "getPathForInstances": return basePath + "/" + a[0] + "/instances";
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == a[0];
                case "toString": return "instances-child layout under " + basePath;
                default: throw new UnsupportedOperationException(method.getName());
            }
        });
        builder.getClass().getMethod("pathConstructor", type).invoke(builder, constructor);
        return builder;
    }

    private static synchronized void print(String line) {
        System.out.println(line.replace('\n', ' ').replace('\r', ' '));
        System.out.flush();
    }

    /** The instance as plain JSON (no type tags), with the payload's Java class beside it. */
    private static String describe(ServiceInstance<?> instance) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", instance.getName());
        out.put("id", instance.getId());
        out.put("address", instance.getAddress());
        out.put("port", instance.getPort());
        out.put("sslPort", instance.getSslPort());
        Object payload = instance.getPayload();
        out.put("payloadClass", payload == null ? null : payload.getClass().getName());
        out.put("payload", payload);
        out.put("serviceType", instance.getServiceType().name());
        out.put("enabled", instance.isEnabled());
        out.put("uri", instance.buildUriSpec());
        return PLAIN.writeValueAsString(out);
    }

    private static String describeAll(Collection<? extends ServiceInstance<?>> instances) throws Exception {
        List<String> items = new ArrayList<>();
        for (ServiceInstance<?> instance : instances) items.add(describe(instance));
        items.sort(null);
        return "[" + String.join(",", items) + "]";
    }

    private static ServiceInstance<Object> instance(String name, String id, String address, int port, String payloadKind, long time, ServiceType type)
        throws Exception {
        Object payload;
        switch (payloadKind) {
            case "map": payload = Map.of("zone", "eu-1"); break;
            case "linked": { Map<String, Object> m = new LinkedHashMap<>(); m.put("zone", "eu-1"); m.put("weight", 3); payload = m; break; }
            case "details": payload = new Details("eu-1", 7); break;
            case "long": payload = 5L; break;
            case "list": payload = new ArrayList<>(List.of("a", "b")); break;
            case "string": payload = "text"; break;
            case "int": payload = 42; break;
            case "none": payload = null; break;
            default: throw new IllegalArgumentException("payload kind " + payloadKind);
        }
        return new ServiceInstance<Object>(name, id, address, port, null, payload, time, type, new UriSpec("{scheme}://{address}:{port}"));
    }

    private String handle(String op, String[] a) throws Exception {
        switch (op) {
            case "serialize": {
                // serialize name id address port payloadKind time type compatible
                ServiceInstance<Object> si = instance(a[0], a[1], a[2], Integer.parseInt(a[3]), a[4], Long.parseLong(a[5]), ServiceType.valueOf(a[6]));
                JsonInstanceSerializer<Object> serializer = new JsonInstanceSerializer<>(Object.class, Boolean.parseBoolean(a[7]));
                return Base64.getEncoder().encodeToString(serializer.serialize(si));
            }
            case "register": {
                // register name id address port payloadKind type
                ServiceType type = a.length > 5 ? ServiceType.valueOf(a[5]) : ServiceType.DYNAMIC;
                objects.registerService(instance(a[0], a[1], a[2], Integer.parseInt(a[3]), a[4], System.currentTimeMillis(), type));
                return "";
            }
            case "unregister": {
                ServiceInstance<Object> si = objects.queryForInstance(a[0], a[1]);
                if (si != null) objects.unregisterService(si);
                return "";
            }
            case "names":
                return PLAIN.writeValueAsString(new TreeMap<>(Map.of("names", new ArrayList<>(objects.queryForNames()))));
            case "query-object":
                return describeAll(objects.queryForInstances(a[0]));
            case "query-map":
                return describeAll(maps.queryForInstances(a[0]));
            case "query-details":
                return describeAll(details.queryForInstances(a[0]));
            case "query-one-details": {
                ServiceInstance<Details> si = details.queryForInstance(a[0], a[1]);
                return si == null ? "null" : describe(si);
            }
            case "raw": {
                byte[] bytes = client.getData().forPath(a[0]);
                return Base64.getEncoder().encodeToString(bytes);
            }
            case "write-back": {
                // Reads an instance as Object and registers it again through Java (the bytes Java writes for it).
                ServiceInstance<Object> si = objects.queryForInstance(a[0], a[1]);
                byte[] bytes = new JsonInstanceSerializer<>(Object.class).serialize(si);
                return Base64.getEncoder().encodeToString(bytes);
            }
            case "provider-start": {
                ServiceProvider<Map> provider = maps.serviceProviderBuilder().serviceName(a[0]).build();
                provider.start();
                providers.put(a[0], provider);
                return "";
            }
            case "provider-all": {
                return describeAll(providers.get(a[0]).getAllInstances());
            }
            case "provider-get": {
                ServiceInstance<Map> si = providers.get(a[0]).getInstance();
                return si == null ? "null" : describe(si);
            }
            case "cache-start": {
                String name = a[0];
                ServiceCache<Object> cache = objects.serviceCacheBuilder().name(name).build();
                cache.addListener(new ServiceCacheListener() {
                    @Override
                    public void cacheChanged() {
                        List<String> ids = new ArrayList<>();
                        for (ServiceInstance<Object> si : cache.getInstances()) ids.add(si.getId());
                        ids.sort(null);
                        print("! cache " + name + " " + String.join(",", ids));
                    }

                    @Override
                    public void stateChanged(CuratorFramework c, ConnectionState s) {}
                });
                cache.start();
                caches.put(name, cache);
                return "";
            }
            case "cache-ids": {
                List<String> ids = new ArrayList<>();
                for (ServiceInstance<Object> si : caches.get(a[0]).getInstances()) ids.add(si.getId());
                ids.sort(null);
                return String.join(",", ids);
            }
            case "uri": {
                // uri base64(spec) sslPort|null: the spec built for a fixed DYNAMIC_SEQUENTIAL instance.
                String spec = new String(Base64.getDecoder().decode(a[0]), StandardCharsets.UTF_8);
                Integer sslPort = a[1].equals("null") ? null : Integer.valueOf(a[1]);
                ServiceInstance<Object> si = new ServiceInstance<Object>("orders", "id-1", "10.0.0.5", 8080, sslPort, null,
                    1795558400154L, ServiceType.DYNAMIC_SEQUENTIAL, null);
                return Base64.getEncoder().encodeToString(new UriSpec(spec).build(si).getBytes(StandardCharsets.UTF_8));
            }
            case "drop-session": {
                // Closes the client without unregistering: the session ends, and the server deletes its ephemerals.
                client.close();
                return "";
            }
            case "session": {
                long id = client.getZookeeperClient().getZooKeeper().getSessionId();
                byte[] password = client.getZookeeperClient().getZooKeeper().getSessionPasswd();
                return Long.toHexString(id) + " " + Base64.getEncoder().encodeToString(password);
            }
            default:
                throw new IllegalArgumentException("unknown op " + op);
        }
    }

    public static void main(String[] args) throws Exception {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
            .connectString(args[0])
            .sessionTimeoutMs(args.length > 2 ? Integer.parseInt(args[2]) : 30000)
            .connectionTimeoutMs(15000)
            .retryPolicy(new ExponentialBackoffRetry(100, 5));
        // enableCompression() is new in 5.8: reached by reflection, so this file still compiles against 5.4.
        if (args.length > 4 && args[4].equals("gzip")) builder.getClass().getMethod("enableCompression").invoke(builder);
        CuratorFramework client = builder.build();
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            System.err.println("could not connect to " + args[0]);
            System.exit(2);
        }
        DiscoveryDriver driver = new DiscoveryDriver(client, args[1], args.length > 3 ? args[3] : "standard");
        print("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            String id = words[0];
            try {
                String result = driver.handle(words[1], Arrays.copyOfRange(words, 2, words.length));
                print(id + " ok" + (result.isEmpty() ? "" : " " + result));
            } catch (Throwable t) {
                print(id + " err " + t.getClass().getSimpleName() + ": " + t.getMessage());
            }
        }
        for (ServiceCache<Object> cache : driver.caches.values()) cache.close();
        for (ServiceProvider<Map> provider : driver.providers.values()) provider.close();
        driver.objects.close();
        driver.details.close();
        driver.maps.close();
        client.close();
        System.exit(0);
    }
}
