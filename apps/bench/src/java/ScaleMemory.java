import java.nio.file.Files;
import java.nio.file.Paths;

/** The memory figures of the Java scale cells (JavaScale, CuratorScale): heap after full GCs, and RSS. */
final class ScaleMemory {
  private ScaleMemory() {}

  /**
   * The heap in use after full GCs, repeated until it stops falling (at most 8): one pair of System.gc()
   * calls left tens of MB of garbage in some runs, which made heap per node of a 10,000-node cache negative.
   */
  static long heapUsed() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 8; i++) {
      System.gc();
      long now = rt.totalMemory() - rt.freeMemory();
      if (used - now < 64 * 1024) return Math.min(used, now);
      used = now;
    }
    return used;
  }

  /** This process's resident set (VmRSS of /proc/self/status), in bytes. */
  static long rss() throws Exception {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
    }
    return 0;
  }
}
