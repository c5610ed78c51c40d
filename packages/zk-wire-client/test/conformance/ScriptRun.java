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
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.proto.CheckWatchesRequest;
import org.apache.zookeeper.proto.ReplyHeader;
import org.apache.zookeeper.proto.RequestHeader;

/** One script: its sessions, ops, and the streams they produce. */
final class ScriptRun {
  /** The client's 3.6+ calls, or null on a 3.5 client. */
  static final Since36Calls SINCE_36 = Since36Calls.load();

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
    add(session, head("error", step, op) + ",\"code\":\"" + DriverValues.code(rc) + "\""
        + (detail == null ? "" : ",\"detail\":" + detail) + (sync ? ",\"synchronous\":true" : "") + "}");
    latch.countDown();
  }

  Watcher watcher(int session, String name) {
    if (name == null) return null;
    return watchers.get(session).computeIfAbsent(name, n -> event -> {
      if (event.getType() == Watcher.Event.EventType.None || !recording[session]) return;
      add(session, "{\"kind\":\"event\",\"watcher\":" + DriverValues.q(n) + ",\"type\":\"" + DriverValues.eventType(event.getType())
          + "\",\"path\":" + DriverValues.q(event.getPath()) + DriverValues.zxid(event) + "}");
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
          for (String entry : streams.get(s)) ConformanceDriver.print("E " + id + " " + s + " " + entry);
        }
      }
      ConformanceDriver.print("D " + id);
    } catch (Throwable t) {
      ConformanceDriver.print("F " + id + " " + t.toString().replace('\n', ' '));
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
      add(session, head("error", step, name) + ",\"code\":" + DriverValues.q(e.getClass().getSimpleName())
          + ",\"synchronous\":true}");
      latch.countDown();
    }
  }

  void call(ZooKeeper zk, int session, int step, String name, String path, Map<String, String> a,
      CountDownLatch latch) throws Exception {
    AsyncCallback.StatCallback statCb = (rc, p, ctx, stat) -> {
      if (rc == 0) result(session, step, name, DriverValues.stat(stat), latch);
      else error(session, step, name, rc, null, latch);
    };
    AsyncCallback.VoidCallback voidCb = (rc, p, ctx) -> {
      if (rc == 0) result(session, step, name, "null", latch);
      else error(session, step, name, rc, null, latch);
    };
    switch (name) {
      case "create": {
        CreateMode mode = DriverValues.createMode(a.getOrDefault("mode", "persistent"));
        boolean withStat = a.containsKey("stat");
        if (withStat || a.containsKey("ttl") || mode.isTTL()) {
          long ttl = a.containsKey("ttl") ? Long.parseLong(a.get("ttl")) : -1;
          zk.create(path, DriverValues.bytes(a.get("data")), DriverValues.acl(a.get("acl")), mode, (rc, p, ctx, created, stat) -> {
            if (rc != 0) error(session, step, name, rc, null, latch);
            else if (withStat) result(session, step, name, "{\"path\":" + DriverValues.q(created) + ",\"stat\":" + DriverValues.stat(stat) + "}", latch);
            else result(session, step, name, DriverValues.q(created), latch);
          }, null, ttl);
        } else {
          zk.create(path, DriverValues.bytes(a.get("data")), DriverValues.acl(a.get("acl")), mode, (rc, p, ctx, created) -> {
            if (rc == 0) result(session, step, name, DriverValues.q(created), latch);
            else error(session, step, name, rc, null, latch);
          }, null);
        }
        break;
      }
      case "delete":
        zk.delete(path, DriverValues.version(a), voidCb, null);
        break;
      case "exists":
        zk.exists(path, watcher(session, a.get("watch")), (rc, p, ctx, stat) -> {
          // Raw: Java reports a missing node as NONODE (the normalizer knows).
          if (rc == 0) result(session, step, name, DriverValues.stat(stat), latch);
          else error(session, step, name, rc, null, latch);
        }, null);
        break;
      case "getData":
        zk.getData(path, watcher(session, a.get("watch")), (rc, p, ctx, d, stat) -> {
          if (rc == 0) result(session, step, name, "{\"data\":" + DriverValues.data(d) + ",\"stat\":" + DriverValues.stat(stat) + "}", latch);
          else error(session, step, name, rc, null, latch);
        }, null);
        break;
      case "getChildren":
        zk.getChildren(path, watcher(session, a.get("watch")), (AsyncCallback.ChildrenCallback) (rc, p, ctx, children) -> {
          if (rc == 0) result(session, step, name, DriverValues.strings(children), latch);
          else error(session, step, name, rc, null, latch);
        }, null);
        break;
      case "getChildren2":
        zk.getChildren(path, watcher(session, a.get("watch")), (AsyncCallback.Children2Callback) (rc, p, ctx, children, stat) -> {
          if (rc == 0) result(session, step, name, "{\"children\":" + DriverValues.strings(children) + ",\"stat\":" + DriverValues.stat(stat) + "}", latch);
          else error(session, step, name, rc, null, latch);
        }, null);
        break;
      case "setData":
        zk.setData(path, DriverValues.bytes(a.get("data")), DriverValues.version(a), statCb, null);
        break;
      case "getACL":
        zk.getACL(path, new Stat(), (rc, p, ctx, list, stat) -> {
          if (rc != 0) {
            error(session, step, name, rc, null, latch);
            return;
          }
          List<String> entries = new ArrayList<>();
          for (ACL e : list) {
            entries.add("{\"perms\":" + e.getPerms() + ",\"scheme\":" + DriverValues.q(e.getId().getScheme()) + ",\"id\":" + DriverValues.q(e.getId().getId()) + "}");
          }
          result(session, step, name, "{\"acl\":[" + String.join(",", entries) + "],\"stat\":" + DriverValues.stat(stat) + "}", latch);
        }, null);
        break;
      case "setACL":
        zk.setACL(path, DriverValues.acl(a.getOrDefault("acl", "")), DriverValues.version(a), statCb, null);
        break;
      case "sync":
        zk.sync(path, voidCb, null);
        break;
      case "getAllChildrenNumber":
        since36(name).getAllChildrenNumber(zk, this, session, step, path, latch);
        break;
      case "getEphemerals":
        since36(name).getEphemerals(zk, this, session, step, path, latch);
        break;
      case "multi":
      case "multiRead":
        multi(zk, session, step, name, a.get("ops"), latch);
        break;
      case "addWatch":
        since36(name).addWatch(zk, this, session, step, path, a.get("watch"), a.get("mode"), latch);
        break;
      case "removeWatches": {
        boolean local = a.containsKey("local");
        if (a.containsKey("watch")) {
          // Sends the checkWatches opcode (ZOOKEEPER-1910) and removes the watcher locally on success.
          zk.removeWatches(path, watcher(session, a.get("watch")), DriverValues.watcherType(a.get("type")), local, voidCb, null);
        } else {
          zk.removeAllWatches(path, DriverValues.watcherType(a.get("type")), local, voidCb, null);
        }
        break;
      }
      case "checkWatches":
        checkWatches(zk, session, path, a.get("type"), voidCb);
        break;
      case "addAuth":
        // No callback in Java: the auth packet takes its place in the queue; a refusal closes the handle.
        zk.addAuthInfo(a.get("scheme"), DriverValues.bytes(a.get("auth")));
        add(session, head("result", step, name) + ",\"value\":null,\"synchronous\":true}");
        latch.countDown();
        break;
      default:
        throw new IllegalStateException("driver: unknown op " + name);
    }
  }

  /** A script that uses a 3.6 call on an older client is a bug of the test (script.ts OP_SINCE). */
  static Since36Calls since36(String call) {
    if (SINCE_36 == null) throw new IllegalStateException("driver: " + call + " is not in this release's Java client");
    return SINCE_36;
  }

  /** The Java client has no public checkWatches: queue the opcode as its own removeWatches does, minus the local part. */
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
        case "create": ops.add(Op.create(f[1], DriverValues.bytes(f[2]), ZooDefs.Ids.OPEN_ACL_UNSAFE, DriverValues.createMode(f[3].isEmpty() ? "persistent" : f[3]))); break;
        case "delete": ops.add(Op.delete(f[1], version)); break;
        case "setData": ops.add(Op.setData(f[1], DriverValues.bytes(f[2]), version)); break;
        case "check": ops.add(Op.check(f[1], version)); break;
        case "getData":
        case "getChildren": ops.add(since36("multiRead").read(f[0], f[1])); break;
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
            codes.add(DriverValues.q(DriverValues.code(err)));
            out.add("{\"error\":" + DriverValues.q(DriverValues.code(err)) + "}");
          } else {
            codes.add(DriverValues.q("OK"));
            if (r instanceof OpResult.CreateResult) out.add("{\"type\":\"create\",\"path\":" + DriverValues.q(((OpResult.CreateResult) r).getPath()) + "}");
            else if (r instanceof OpResult.SetDataResult) out.add("{\"type\":\"setData\",\"stat\":" + DriverValues.stat(((OpResult.SetDataResult) r).getStat()) + "}");
            else if (r instanceof OpResult.DeleteResult) out.add("{\"type\":\"delete\"}");
            else if (r instanceof OpResult.CheckResult) out.add("{\"type\":\"check\"}");
            else {
              String read = SINCE_36 == null ? null : SINCE_36.readResult(r);
              out.add(read != null ? read : DriverValues.q(r.getClass().getSimpleName()));
            }
          }
        }
      }
      if (name.equals("multiRead") && results != null && Thread.currentThread() != issuing) {
        // Raw: the callback's rc is the first per-op error of a read-only multi (the normalizer knows).
        add(session, head("result", step, name) + ",\"value\":[" + String.join(",", out) + "],\"rc\":" + DriverValues.q(DriverValues.code(rc)) + "}");
        latch.countDown();
      } else if (rc == 0) {
        result(session, step, name, "[" + String.join(",", out) + "]", latch);
      } else {
        error(session, step, name, rc, results == null ? null : "[" + String.join(",", codes) + "]", latch);
      }
    }, null);
  }
}
