import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;

/** The 3.6+ calls of the driver (Since36Calls.java says why they are apart). */
final class Since36 implements Since36Calls {
  @Override
  public void addWatch(ZooKeeper zk, ScriptRun run, int session, int step, String path, String watch, String mode,
      CountDownLatch latch) {
    AddWatchMode addMode = mode.equals("persistent") ? AddWatchMode.PERSISTENT : AddWatchMode.PERSISTENT_RECURSIVE;
    zk.addWatch(path, run.watcher(session, watch), addMode, (rc, p, ctx) -> {
      if (rc == 0) run.result(session, step, "addWatch", "null", latch);
      else run.error(session, step, "addWatch", rc, null, latch);
    }, null);
  }

  @Override
  public void getAllChildrenNumber(ZooKeeper zk, ScriptRun run, int session, int step, String path,
      CountDownLatch latch) {
    zk.getAllChildrenNumber(path, (rc, p, ctx, number) -> {
      if (rc == 0) run.result(session, step, "getAllChildrenNumber", String.valueOf(number), latch);
      else run.error(session, step, "getAllChildrenNumber", rc, null, latch);
    }, null);
  }

  @Override
  public void getEphemerals(ZooKeeper zk, ScriptRun run, int session, int step, String path, CountDownLatch latch) {
    zk.getEphemerals(path, (rc, ctx, paths) -> {
      if (rc == 0) run.result(session, step, "getEphemerals", DriverValues.strings(paths), latch);
      else run.error(session, step, "getEphemerals", rc, null, latch);
    }, null);
  }

  @Override
  public Op read(String type, String path) {
    return type.equals("getData") ? Op.getData(path) : Op.getChildren(path);
  }

  @Override
  public String readResult(OpResult r) {
    if (r instanceof OpResult.GetDataResult) {
      OpResult.GetDataResult g = (OpResult.GetDataResult) r;
      return "{\"type\":\"getData\",\"data\":" + DriverValues.data(g.getData()) + ",\"stat\":" + DriverValues.stat(g.getStat()) + "}";
    }
    if (r instanceof OpResult.GetChildrenResult) {
      return "{\"type\":\"getChildren\",\"children\":" + DriverValues.strings(((OpResult.GetChildrenResult) r).getChildren()) + "}";
    }
    return null;
  }
}
