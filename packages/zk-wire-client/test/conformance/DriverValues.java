import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;

/** Values of the conformance driver's streams: JSON for the entries, and the client's names mapped to Java's. */
final class DriverValues {
  private DriverValues() {}


  static String q(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  static String stat(Stat s) {
    if (s == null) return "null";
    return "{\"czxid\":\"" + s.getCzxid() + "\",\"mzxid\":\"" + s.getMzxid() + "\",\"ctime\":\"" + s.getCtime()
        + "\",\"mtime\":\"" + s.getMtime() + "\",\"version\":" + s.getVersion() + ",\"cversion\":"
        + s.getCversion() + ",\"aversion\":" + s.getAversion() + ",\"ephemeralOwner\":\"" + s.getEphemeralOwner()
        + "\",\"dataLength\":" + s.getDataLength() + ",\"numChildren\":" + s.getNumChildren() + ",\"pzxid\":\""
        + s.getPzxid() + "\"}";
  }

  static String strings(List<String> list) {
    if (list == null) return "null";
    List<String> out = new ArrayList<>();
    for (String s : list) out.add(q(s));
    return "[" + String.join(",", out) + "]";
  }

  static String data(byte[] d) {
    return d == null ? "null" : q(new String(d, StandardCharsets.UTF_8));
  }

  static String code(int rc) {
    KeeperException.Code c = KeeperException.Code.get(rc);
    return c == null ? "UNKNOWN(" + rc + ")" : c.name();
  }

  /** WatchedEvent.getZxid, from 3.9 (ZOOKEEPER-4655): looked up, so that older clients compile. */
  static final Method GET_ZXID = zxidGetter();

  private static Method zxidGetter() {
    try {
      return WatchedEvent.class.getMethod("getZxid");
    } catch (NoSuchMethodException absent) {
      return null;
    }
  }

  /** The event's `,"zxid":"n"` member (raw: -1 is NO_ZXID), or nothing on a client without getZxid. */
  static String zxid(WatchedEvent event) {
    if (GET_ZXID == null) return "";
    try {
      return ",\"zxid\":\"" + GET_ZXID.invoke(event) + "\"";
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("driver: WatchedEvent.getZxid failed", e);
    }
  }

  /** By name: PersistentWatchRemoved is not in a 3.5 client. */
  static String eventType(Watcher.Event.EventType type) {
    switch (type.name()) {
      case "NodeCreated": return "created";
      case "NodeDeleted": return "deleted";
      case "NodeDataChanged": return "dataChanged";
      case "NodeChildrenChanged": return "childrenChanged";
      case "DataWatchRemoved": return "dataWatchRemoved";
      case "ChildWatchRemoved": return "childWatchRemoved";
      case "PersistentWatchRemoved": return "persistentWatchRemoved";
      default: return type.name();
    }
  }

  static CreateMode createMode(String name) {
    switch (name) {
      case "persistent": return CreateMode.PERSISTENT;
      case "ephemeral": return CreateMode.EPHEMERAL;
      case "persistent-sequential": return CreateMode.PERSISTENT_SEQUENTIAL;
      case "ephemeral-sequential": return CreateMode.EPHEMERAL_SEQUENTIAL;
      case "container": return CreateMode.CONTAINER;
      case "persistent-ttl": return CreateMode.PERSISTENT_WITH_TTL;
      case "persistent-sequential-ttl": return CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL;
      default: throw new IllegalStateException("driver: unknown mode " + name);
    }
  }

  static Watcher.WatcherType watcherType(String name) {
    switch (name) {
      case "children": return Watcher.WatcherType.Children;
      case "data": return Watcher.WatcherType.Data;
      default: return Watcher.WatcherType.Any;
    }
  }

  /** "perms|scheme|id;..." */
  static List<ACL> acl(String spec) {
    if (spec == null) return ZooDefs.Ids.OPEN_ACL_UNSAFE;
    List<ACL> list = new ArrayList<>();
    if (spec.isEmpty()) return list;
    for (String entry : spec.split(";")) {
      String[] p = entry.split("\\|", 3);
      list.add(new ACL(Integer.parseInt(p[0]), new Id(p[1], p[2])));
    }
    return list;
  }

  static byte[] bytes(String s) {
    return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
  }

  static int version(Map<String, String> a) {
    return a.containsKey("version") ? Integer.parseInt(a.get("version")) : -1;
  }

}
