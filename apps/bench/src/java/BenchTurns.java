// Taking turns with the other contenders of a case, for the Java driver (TurnSchedule in src/types.ts, runTurns
// in src/measure/turns.ts): the start line from the orchestrator, then when each of this contender's turns
// begins. The throughput loop and the latency loop (BenchLatency) both run by it.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Map;

final class BenchTurns {
  /** the first turn's start (epoch ms), the same for every contender of the case (src/run-cell.ts) */
  final long startAt;
  final int index;
  final int of;
  /** measured cycles, after the warm-up cycle 0 */
  final int cycles;
  final long turnMs;
  final long period;
  /** a turn's first moments are not measured (rampMs in src/measure/turns.ts) */
  final long rampMs;

  private BenchTurns(Map<String, String> args, long startAt) {
    this.startAt = startAt;
    index = Integer.parseInt(args.get("turnsIndex"));
    of = Integer.parseInt(args.get("turnsOf"));
    cycles = Integer.parseInt(args.get("turnCycles"));
    turnMs = Long.parseLong(args.get("turnMs"));
    period = turnMs + Long.parseLong(args.get("gapMs"));
    rampMs = Math.min(100, Math.round(turnMs / 5.0));
  }

  /** Whether the cell's arguments name a schedule (driver-protocol.ts). */
  static boolean named(Map<String, String> args) {
    return Integer.parseInt(args.getOrDefault("turnCycles", "0")) > 0;
  }

  /**
   * Says the driver is ready (READY_MARKER in types.ts) and waits for the orchestrator's answer, the first
   * turn's start, which comes once every contender of the case is ready (src/run-cell.ts).
   */
  static BenchTurns awaitStart(Map<String, String> args) throws Exception {
    System.out.println("@@ready");
    System.out.flush();
    String line = new BufferedReader(new InputStreamReader(System.in)).readLine();
    if (line == null) throw new IllegalStateException("the orchestrator closed stdin before the start line");
    return new BenchTurns(args, Long.parseLong(line.trim()));
  }

  /** When this contender's turn of `cycle` begins (epoch ms). */
  long startOf(int cycle) {
    return startAt + (cycle * (long) of + index) * period;
  }

  static void sleepUntil(long epochMs) throws InterruptedException {
    long wait = epochMs - System.currentTimeMillis();
    if (wait > 0) Thread.sleep(wait);
  }
}
