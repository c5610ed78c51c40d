import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * A line protocol over stdin/stdout for driving Curator recipes from a test.
 *
 * <pre>
 *   args:      connectString handlerClass [sessionTimeoutMs]
 *   startup:   prints "ready" once connected
 *   request:   id actor op arg...          (words separated by single spaces, no spaces inside words)
 *   response:  id ok result | id err message
 *   event:     ! text                      (sent by a handler at any time)
 * </pre>
 *
 * Each actor has its own thread, so requests of one actor run in order and requests of different actors run
 * concurrently. The JVM exits when stdin closes.
 */
public final class DriverMain {
    private final Map<String, ExecutorService> actors = new ConcurrentHashMap<>();

    /** Sends an unsolicited event line. */
    public synchronized void event(String text) {
        System.out.println("! " + text);
        System.out.flush();
    }

    private synchronized void reply(String id, String status, String text) {
        String oneLine = text == null ? "" : text.replace('\n', ' ').replace('\r', ' ');
        System.out.println(id + " " + status + (oneLine.isEmpty() ? "" : " " + oneLine));
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        String connectString = args[0];
        DriverHandler handler = (DriverHandler) Class.forName(args[1]).getDeclaredConstructor().newInstance();
        int sessionTimeoutMs = args.length > 2 ? Integer.parseInt(args[2]) : 30000;
        CuratorFramework client = CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .sessionTimeoutMs(sessionTimeoutMs)
            .connectionTimeoutMs(15000)
            .retryPolicy(new ExponentialBackoffRetry(100, 5))
            .build();
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            System.err.println("could not connect to " + connectString);
            System.exit(2);
        }
        DriverMain driver = new DriverMain();
        handler.init(client, driver);
        System.out.println("ready");
        System.out.flush();

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            if (words.length < 3) {
                driver.reply(words[0], "err", "a request is: id actor op arg...");
                continue;
            }
            String id = words[0];
            String actor = words[1];
            String op = words[2];
            String[] rest = Arrays.copyOfRange(words, 3, words.length);
            driver.actors.computeIfAbsent(actor, a -> Executors.newSingleThreadExecutor()).execute(() -> {
                try {
                    driver.reply(id, "ok", handler.handle(actor, op, rest));
                } catch (Throwable t) {
                    driver.reply(id, "err", t.getClass().getSimpleName() + ": " + t.getMessage());
                }
            });
        }
        for (ExecutorService executor : driver.actors.values()) executor.shutdownNow();
        client.close();
        System.exit(0);
    }
}
