import org.apache.curator.framework.CuratorFramework;

/**
 * One kind of recipe driven from a test. DriverMain calls handle() on the actor's own thread, so Curator's
 * per-thread lock ownership follows the actor: two actors of one JVM contend like two threads.
 */
public interface DriverHandler {
    /** Called once, with a started and connected client, before any request. */
    void init(CuratorFramework client, DriverMain driver) throws Exception;

    /** Runs one request; the return value (may be empty) is sent back after "ok". */
    String handle(String actor, String op, String[] args) throws Exception;
}
