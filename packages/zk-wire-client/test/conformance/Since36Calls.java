import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;

/**
 * The calls a Java client has from 3.6 on (addWatch, the counting calls, reads inside multi). Since36.java
 * implements them and is compiled only against a 3.6+ client (java-runner.ts), so that the driver compiles
 * against 3.5 too, where the scripts never use them (script.ts OP_SINCE).
 */
interface Since36Calls {
  void addWatch(ZooKeeper zk, ScriptRun run, int session, int step, String path, String watch, String mode,
      CountDownLatch latch);

  void getAllChildrenNumber(ZooKeeper zk, ScriptRun run, int session, int step, String path, CountDownLatch latch);

  void getEphemerals(ZooKeeper zk, ScriptRun run, int session, int step, String path, CountDownLatch latch);

  /** The read op of a read-only multi: type getData or getChildren. */
  Op read(String type, String path);

  /** The JSON of a read op's result in a multi, or null when `result` is not one. */
  String readResult(OpResult result);

  /** Loads Since36 when it was compiled in, else null. */
  static Since36Calls load() {
    try {
      return (Since36Calls) Class.forName("Since36").getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException absent) {
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("driver: Since36 could not be loaded", e);
    }
  }
}
