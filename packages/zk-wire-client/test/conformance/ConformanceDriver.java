import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.CheckWatchesRequest;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;

/**
 * The Java side of the differential conformance test (conformance.test.ts): runs scripts through the Java
 * 3.8 client's ASYNC API, whose callbacks and watcher events come one at a time, in server order, on each
 * handle's event thread. One JVM runs every script.
 *
 * stdin, one script at a time:
 *   script ID               starts a script
 *   session CONNECT CHROOT  one per session: the connect string and the chroot it holds ('-' for none)
 *   op BATCH SESSION STEP NAME key=value...   values URL-encoded
 *   run                     runs it; prints "E ID SESSION JSON" per stream entry, then "D ID" (or "F ID why")
 * stdout starts with "ready". The driver exits when stdin closes.
 */
public class ConformanceDriver {
  static final PrintStream OUT = new PrintStream(System.out, false, StandardCharsets.UTF_8);

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    print("ready");
    ScriptRun script = null;
    for (String line; (line = in.readLine()) != null; ) {
      String[] parts = line.split(" ");
      switch (parts[0]) {
        case "script":
          script = new ScriptRun(parts[1]);
          break;
        case "session":
          script.connect.add(parts[1]);
          script.chroot.add(parts[2].equals("-") ? "" : parts[2]);
          break;
        case "op":
          script.ops.add(parts);
          break;
        case "run":
          script.run();
          script = null;
          break;
        default:
          print("F ? unknown line " + line);
      }
    }
    System.exit(0);
  }

  static synchronized void print(String line) {
    OUT.println(line);
    OUT.flush();
  }

  // ---- JSON, just what the streams need ----

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

  static String eventType(Watcher.Event.EventType type) {
    switch (type) {
      case NodeCreated: return "created";
      case NodeDeleted: return "deleted";
      case NodeDataChanged: return "dataChanged";
      case NodeChildrenChanged: return "childrenChanged";
      case DataWatchRemoved: return "dataWatchRemoved";
      case ChildWatchRemoved: return "childWatchRemoved";
      case PersistentWatchRemoved: return "persistentWatchRemoved";
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

  /** One script: its sessions, ops, and the streams they produce. */
  static final class ScriptRun {
    final String id;
    final List<String> connect = new ArrayList<>();
    final List<String> chroot = new ArrayList<>();
    final List<String[]> ops = new ArrayList<>();
    final List<List<String>> streams = new ArrayList<>();
    final List<Map<String, Watcher>> watchers = new ArrayList<>();
    volatile boolean[] recording;
    volatile Thread issuing;

    ScriptRun(String id) {
      this.id = id;
    }

    void add(int session, String json) {
      List<String> stream = streams.get(session);
      synchronized (stream) {
        stream.add(json);
      }
    }

    String head(String kind, int step, String op) {
      return "{\"kind\":\"" + kind + "\",\"step\":" + step + ",\"op\":\"" + op + "\"";
    }

    void result(int session, int step, String op, String value, CountDownLatch latch) {
      add(session, head("result", step, op) + ",\"value\":" + value + "}");
      latch.countDown();
    }

    void error(int session, int step, String op, int rc, String detail, CountDownLatch latch) {
      boolean sync = Thread.currentThread() == issuing;
      add(session, head("error", step, op) + ",\"code\":\"" + code(rc) + "\""
          + (detail == null ? "" : ",\"detail\":" + detail) + (sync ? ",\"synchronous\":true" : "") + "}");
      latch.countDown();
    }

    Watcher watcher(int session, String name) {
      if (name == null) return null;
      return watchers.get(session).computeIfAbsent(name, n -> event -> {
        if (event.getType() == Watcher.Event.EventType.None || !recording[session]) return;
        add(session, "{\"kind\":\"event\",\"watcher\":" + q(n) + ",\"type\":\"" + eventType(event.getType())
            + "\",\"path\":" + q(event.getPath()) + "}");
      });
    }

    void run() {
      List<ZooKeeper> handles = new ArrayList<>();
      try {
        recording = new boolean[connect.size()];
        for (int s = 0; s < connect.size(); s++) {
          streams.add(new ArrayList<>());
          watchers.add(Collections.synchronizedMap(new HashMap<>()));
          recording[s] = true;
          CountDownLatch connected = new CountDownLatch(1);
          handles.add(new ZooKeeper(connect.get(s), 30000, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
          }));
          if (!connected.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("session " + s + " did not connect");
        }
        int batches = 0;
        for (String[] op : ops) batches = Math.max(batches, Integer.parseInt(op[1]) + 1);
        for (int b = 0; b < batches; b++) {
          List<String[]> batch = new ArrayList<>();
          for (String[] op : ops) if (Integer.parseInt(op[1]) == b) batch.add(op);
          CountDownLatch latch = new CountDownLatch(batch.size());
          issuing = Thread.currentThread();
          for (String[] op : batch) issue(handles, op, latch); // back to back, without waiting
          issuing = null;
          if (!latch.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("batch " + b + " timed out");
        }
        // Barrier: every event caused before it has reached its watcher once its callback runs.
        CountDownLatch barrier = new CountDownLatch(handles.size());
        for (int s = 0; s < handles.size(); s++) {
          final int session = s;
          handles.get(s).sync("/", (rc, path, ctx) -> {
            recording[session] = false;
            barrier.countDown();
          }, null);
        }
        if (!barrier.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("barrier timed out");
        for (int s = 0; s < streams.size(); s++) {
          synchronized (streams.get(s)) {
            for (String entry : streams.get(s)) print("E " + id + " " + s + " " + entry);
          }
        }
        print("D " + id);
      } catch (Throwable t) {
        print("F " + id + " " + t.toString().replace('\n', ' '));
      } finally {
        if (recording != null) java.util.Arrays.fill(recording, false);
        for (ZooKeeper zk : handles) {
          try {
            zk.close();
          } catch (InterruptedException ignored) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }

    void issue(List<ZooKeeper> handles, String[] parts, CountDownLatch latch) throws Exception {
      int session = Integer.parseInt(parts[2]);
      int step = Integer.parseInt(parts[3]);
      String name = parts[4];
      Map<String, String> a = new HashMap<>();
      for (int i = 5; i < parts.length; i++) {
        int eq = parts[i].indexOf('=');
        a.put(parts[i].substring(0, eq), URLDecoder.decode(parts[i].substring(eq + 1), StandardCharsets.UTF_8));
      }
      ZooKeeper zk = handles.get(session);
      String path = a.get("path");
      try {
        call(zk, session, step, name, path, a, latch);
      } catch (RuntimeException e) {
        // Java checks paths and arguments in the call and throws (IllegalArgumentException).
        add(session, head("error", step, name) + ",\"code\":" + q(e.getClass().getSimpleName())
            + ",\"synchronous\":true}");
        latch.countDown();
      }
    }

    void call(ZooKeeper zk, int session, int step, String name, String path, Map<String, String> a,
        CountDownLatch latch) throws Exception {
      AsyncCallback.StatCallback statCb = (rc, p, ctx, stat) -> {
        if (rc == 0) result(session, step, name, stat(stat), latch);
        else error(session, step, name, rc, null, latch);
      };
      AsyncCallback.VoidCallback voidCb = (rc, p, ctx) -> {
        if (rc == 0) result(session, step, name, "null", latch);
        else error(session, step, name, rc, null, latch);
      };
      switch (name) {
        case "create": {
          CreateMode mode = createMode(a.getOrDefault("mode", "persistent"));
          boolean withStat = a.containsKey("stat");
          if (withStat || a.containsKey("ttl") || mode.isTTL()) {
            long ttl = a.containsKey("ttl") ? Long.parseLong(a.get("ttl")) : -1;
            zk.create(path, bytes(a.get("data")), acl(a.get("acl")), mode, (rc, p, ctx, created, stat) -> {
              if (rc != 0) error(session, step, name, rc, null, latch);
              else if (withStat) result(session, step, name, "{\"path\":" + q(created) + ",\"stat\":" + stat(stat) + "}", latch);
              else result(session, step, name, q(created), latch);
            }, null, ttl);
          } else {
            zk.create(path, bytes(a.get("data")), acl(a.get("acl")), mode, (rc, p, ctx, created) -> {
              if (rc == 0) result(session, step, name, q(created), latch);
              else error(session, step, name, rc, null, latch);
            }, null);
          }
          break;
        }
        case "delete":
          zk.delete(path, version(a), voidCb, null);
          break;
        case "exists":
          zk.exists(path, watcher(session, a.get("watch")), (rc, p, ctx, stat) -> {
            // Raw: Java reports a missing node as NONODE (the normalizer knows).
            if (rc == 0) result(session, step, name, stat(stat), latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "getData":
          zk.getData(path, watcher(session, a.get("watch")), (rc, p, ctx, d, stat) -> {
            if (rc == 0) result(session, step, name, "{\"data\":" + data(d) + ",\"stat\":" + stat(stat) + "}", latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "getChildren":
          zk.getChildren(path, watcher(session, a.get("watch")), (AsyncCallback.ChildrenCallback) (rc, p, ctx, children) -> {
            if (rc == 0) result(session, step, name, strings(children), latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "getChildren2":
          zk.getChildren(path, watcher(session, a.get("watch")), (AsyncCallback.Children2Callback) (rc, p, ctx, children, stat) -> {
            if (rc == 0) result(session, step, name, "{\"children\":" + strings(children) + ",\"stat\":" + stat(stat) + "}", latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "setData":
          zk.setData(path, bytes(a.get("data")), version(a), statCb, null);
          break;
        case "getACL":
          zk.getACL(path, new Stat(), (rc, p, ctx, list, stat) -> {
            if (rc != 0) {
              error(session, step, name, rc, null, latch);
              return;
            }
            List<String> entries = new ArrayList<>();
            for (ACL e : list) {
              entries.add("{\"perms\":" + e.getPerms() + ",\"scheme\":" + q(e.getId().getScheme()) + ",\"id\":" + q(e.getId().getId()) + "}");
            }
            result(session, step, name, "{\"acl\":[" + String.join(",", entries) + "],\"stat\":" + stat(stat) + "}", latch);
          }, null);
          break;
        case "setACL":
          zk.setACL(path, acl(a.getOrDefault("acl", "")), version(a), statCb, null);
          break;
        case "sync":
          zk.sync(path, voidCb, null);
          break;
        case "getAllChildrenNumber":
          zk.getAllChildrenNumber(path, (rc, p, ctx, number) -> {
            if (rc == 0) result(session, step, name, String.valueOf(number), latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "getEphemerals":
          zk.getEphemerals(path, (rc, ctx, paths) -> {
            if (rc == 0) result(session, step, name, strings(paths), latch);
            else error(session, step, name, rc, null, latch);
          }, null);
          break;
        case "multi":
        case "multiRead":
          multi(zk, session, step, name, a.get("ops"), latch);
          break;
        case "addWatch":
          zk.addWatch(path, watcher(session, a.get("watch")),
              a.get("mode").equals("persistent") ? AddWatchMode.PERSISTENT : AddWatchMode.PERSISTENT_RECURSIVE, voidCb, null);
          break;
        case "removeWatches": {
          boolean local = a.containsKey("local");
          if (a.containsKey("watch")) {
            // Sends the checkWatches opcode (ZOOKEEPER-1910) and removes the watcher locally on success.
            zk.removeWatches(path, watcher(session, a.get("watch")), watcherType(a.get("type")), local, voidCb, null);
          } else {
            zk.removeAllWatches(path, watcherType(a.get("type")), local, voidCb, null);
          }
          break;
        }
        case "checkWatches":
          checkWatches(zk, session, path, a.get("type"), voidCb);
          break;
        case "addAuth":
          // No callback in Java: the auth packet takes its place in the queue; a refusal closes the handle.
          zk.addAuthInfo(a.get("scheme"), bytes(a.get("auth")));
          add(session, head("result", step, name) + ",\"value\":null,\"synchronous\":true}");
          latch.countDown();
          break;
        default:
          throw new IllegalStateException("driver: unknown op " + name);
      }
    }

    /** Java 3.8 has no public checkWatches: queue the opcode as its own removeWatches does, minus the local part. */
    void checkWatches(ZooKeeper zk, int session, String path, String type, AsyncCallback.VoidCallback cb) throws Exception {
      Field field = ZooKeeper.class.getDeclaredField("cnxn");
      field.setAccessible(true);
      Object cnxn = field.get(zk);
      Method queue = null;
      for (Method m : cnxn.getClass().getDeclaredMethods()) {
        if (m.getName().equals("queuePacket") && m.getParameterCount() == 10) queue = m;
      }
      if (queue == null) throw new IllegalStateException("driver: ClientCnxn.queuePacket not found");
      queue.setAccessible(true);
      RequestHeader h = new RequestHeader();
      h.setType(ZooDefs.OpCode.checkWatches);
      int wireType = type.equals("children") ? 1 : type.equals("data") ? 2 : 3;
      String serverPath = path.equals("/") && !chroot.get(session).isEmpty() ? chroot.get(session) : chroot.get(session) + path;
      org.apache.zookeeper.common.PathUtils.validatePath(path);
      queue.invoke(cnxn, h, new ReplyHeader(), new CheckWatchesRequest(serverPath, wireType), null, cb, path, serverPath, null, null, null);
    }

    /** ops: "type,path,data,mode,version;..." with each field URL-encoded. */
    void multi(ZooKeeper zk, int session, int step, String name, String spec, CountDownLatch latch) {
      List<Op> ops = new ArrayList<>();
      for (String one : spec.split(";")) {
        String[] f = one.split(",", -1);
        for (int i = 0; i < f.length; i++) f[i] = URLDecoder.decode(f[i], StandardCharsets.UTF_8);
        int version = f[4].isEmpty() ? -1 : Integer.parseInt(f[4]);
        switch (f[0]) {
          case "create": ops.add(Op.create(f[1], bytes(f[2]), ZooDefs.Ids.OPEN_ACL_UNSAFE, createMode(f[3].isEmpty() ? "persistent" : f[3]))); break;
          case "delete": ops.add(Op.delete(f[1], version)); break;
          case "setData": ops.add(Op.setData(f[1], bytes(f[2]), version)); break;
          case "check": ops.add(Op.check(f[1], version)); break;
          case "getData": ops.add(Op.getData(f[1])); break;
          case "getChildren": ops.add(Op.getChildren(f[1])); break;
          default: throw new IllegalStateException("driver: unknown multi op " + f[0]);
        }
      }
      zk.multi(ops, (rc, p, ctx, results) -> {
        List<String> out = new ArrayList<>();
        List<String> codes = new ArrayList<>();
        if (results != null) {
          for (OpResult r : results) {
            if (r instanceof OpResult.ErrorResult) {
              int err = ((OpResult.ErrorResult) r).getErr();
              codes.add(q(code(err)));
              out.add("{\"error\":" + q(code(err)) + "}");
            } else {
              codes.add(q("OK"));
              if (r instanceof OpResult.CreateResult) out.add("{\"type\":\"create\",\"path\":" + q(((OpResult.CreateResult) r).getPath()) + "}");
              else if (r instanceof OpResult.SetDataResult) out.add("{\"type\":\"setData\",\"stat\":" + stat(((OpResult.SetDataResult) r).getStat()) + "}");
              else if (r instanceof OpResult.DeleteResult) out.add("{\"type\":\"delete\"}");
              else if (r instanceof OpResult.CheckResult) out.add("{\"type\":\"check\"}");
              else if (r instanceof OpResult.GetDataResult) {
                OpResult.GetDataResult g = (OpResult.GetDataResult) r;
                out.add("{\"type\":\"getData\",\"data\":" + data(g.getData()) + ",\"stat\":" + stat(g.getStat()) + "}");
              } else if (r instanceof OpResult.GetChildrenResult) {
                out.add("{\"type\":\"getChildren\",\"children\":" + strings(((OpResult.GetChildrenResult) r).getChildren()) + "}");
              } else out.add(q(r.getClass().getSimpleName()));
            }
          }
        }
        if (name.equals("multiRead") && results != null && Thread.currentThread() != issuing) {
          // Raw: the callback's rc is the first per-op error of a read-only multi (the normalizer knows).
          add(session, head("result", step, name) + ",\"value\":[" + String.join(",", out) + "],\"rc\":" + q(code(rc)) + "}");
          latch.countDown();
        } else if (rc == 0) {
          result(session, step, name, "[" + String.join(",", out) + "]", latch);
        } else {
          error(session, step, name, rc, results == null ? null : "[" + String.join(",", codes) + "]", latch);
        }
      }, null);
    }
  }
}
