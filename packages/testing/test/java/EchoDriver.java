import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * A line-protocol driver without a server: "echo words..." answers ok with the words, "fail text" answers
 * err, "emit text" prints the event "! text" and answers ok, "exit code" ends the JVM at once without an
 * answer. Prints "ready" first (or exits with 2 at once when its first argument is "refuse").
 */
public class EchoDriver {
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("refuse")) {
      System.err.println("refusing to start");
      System.exit(2);
    }
    System.out.println("ready");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] words = line.split(" ");
      String id = words[0];
      String rest = String.join(" ", java.util.Arrays.copyOfRange(words, 2, words.length));
      switch (words[1]) {
        case "echo": System.out.println(id + " ok " + rest); break;
        case "fail": System.out.println(id + " err " + rest); break;
        case "emit": System.out.println("! " + rest); System.out.println(id + " ok"); break;
        case "exit": System.exit(Integer.parseInt(words[2])); break;
        default: System.out.println(id + " err unknown " + words[1]);
      }
      System.out.flush();
    }
  }
}
