import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The Java side of the differential conformance test (conformance.test.ts): runs scripts through the ASYNC
 * API of the Java client of the server's release, whose callbacks and watcher events come one at a time, in
 * server order, on each handle's event thread. One JVM runs every script.
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

}
