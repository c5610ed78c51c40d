/**
 * Our retry policies against Curator 5.4.0's own classes, run in a JVM: the same inputs must give the same
 * answers (retry or not, and the sleep). Curator sleeps through a RetrySleeper, which the driver replaces with
 * one that records the sleep. The exponential policies are random: the driver samples them and reports the
 * range per retry count, which must be exactly our range.
 */
import { compileJava, findCurator, type JavaResult } from '@zkwire/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BoundedExponentialBackoffRetry,
  ExponentialBackoffRetry,
  RetryForever,
  RetryNTimes,
  RetryOneTime,
  type RetryPolicy,
  RetryUntilElapsed,
} from '../src/index.js';

const DRIVER = `
import org.apache.curator.RetryPolicy;
import org.apache.curator.RetrySleeper;
import org.apache.curator.retry.*;
import java.util.concurrent.TimeUnit;

public class RetryDriver {
  static long slept;
  static final RetrySleeper SLEEPER = new RetrySleeper() {
    public void sleepFor(long time, TimeUnit unit) { slept = unit.toMillis(time); }
  };

  static String answer(RetryPolicy policy, int count, long elapsed) {
    slept = -1;
    return policy.allowRetry(count, elapsed, SLEEPER) ? Long.toString(slept) : "false";
  }

  static void fixed(String name, RetryPolicy policy, long[][] inputs) {
    for (long[] in : inputs) {
      System.out.println(name + " " + in[0] + " " + in[1] + " " + answer(policy, (int) in[0], in[1]));
    }
  }

  static void range(String name, RetryPolicy policy, int count) {
    long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
    for (int i = 0; i < 4000; i++) {
      slept = -1;
      policy.allowRetry(count, 0, SLEEPER);
      min = Math.min(min, slept);
      max = Math.max(max, slept);
    }
    System.out.println(name + " range " + count + " " + min + " " + max);
  }

  public static void main(String[] args) {
    fixed("nTimes", new RetryNTimes(3, 50), new long[][] {{0, 0}, {2, 0}, {3, 0}, {4, 0}});
    fixed("oneTime", new RetryOneTime(70), new long[][] {{0, 0}, {1, 0}});
    fixed("untilElapsed", new RetryUntilElapsed(1000, 30), new long[][] {{0, 0}, {5, 999}, {0, 1000}, {7, 5000}});
    fixed("forever", new RetryForever(40), new long[][] {{0, 0}, {100000, 1000000000}});
    fixed("expCap", new ExponentialBackoffRetry(100, 50), new long[][] {{28, 0}, {29, 0}});
    fixed("expRetries", new ExponentialBackoffRetry(100, 3), new long[][] {{3, 0}});
    ExponentialBackoffRetry exp = new ExponentialBackoffRetry(100, 10);
    for (int k = 0; k <= 4; k++) range("exp", exp, k);
    range("expMax", new ExponentialBackoffRetry(100, 10, 1000), 5);
    range("bounded", new BoundedExponentialBackoffRetry(100, 300, 5), 3);
  }
}
`;

/** Our answer in the driver's format: the sleep, or "false". */
function ours(policy: RetryPolicy, count: number, elapsed: number): string {
  const sleep = policy.allowRetry(count, elapsed);
  return sleep === false ? 'false' : String(sleep);
}

/** Our range of sleeps for a retry count: the random source at its lowest and highest. */
function ourRange(make: (random: () => number) => RetryPolicy, count: number): [number, number] {
  const low = make(() => 0).allowRetry(count, 0);
  const high = make(() => 1 - Number.EPSILON).allowRetry(count, 0);
  return [low as number, high as number];
}

let lines: string[];

beforeAll(async () => {
  const java = await compileJava({
    sources: { 'RetryDriver.java': DRIVER },
    classpath: findCurator().classpath,
  });
  const result: JavaResult = await java.exec('RetryDriver');
  expect(result.code, result.stderr).toBe(0);
  lines = result.stdout.trim().split('\n');
});

/** The driver's answers for one policy name, as "count elapsed answer" strings. */
function curator(name: string): string[] {
  return lines.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1));
}

describe('retry policies answer as Curator 5.4.0 does', () => {
  it('fixed sleeps and retry counts', () => {
    const cases: [string, RetryPolicy][] = [
      ['nTimes', new RetryNTimes(3, 50)],
      ['oneTime', new RetryOneTime(70)],
      ['untilElapsed', new RetryUntilElapsed(1000, 30)],
      ['forever', new RetryForever(40)],
      ['expCap', new ExponentialBackoffRetry(100, 50, undefined, () => 0)],
      ['expRetries', new ExponentialBackoffRetry(100, 3, undefined, () => 0)],
    ];
    for (const [name, policy] of cases) {
      const theirs = curator(name);
      expect(theirs.length, name).toBeGreaterThan(0);
      for (const line of theirs) {
        const [count, elapsed, answer] = line.split(' ');
        // Curator's random sleeps differ run to run; only whether it retries is compared for those.
        const mine = ours(policy, Number(count), Number(elapsed));
        if (name.startsWith('exp')) expect(mine === 'false', `${name} ${line}`).toBe(answer === 'false');
        else expect(mine, `${name} ${line}`).toBe(answer);
      }
    }
  });

  it('exponential backoff sleeps span exactly our range', () => {
    const ranges: [string, (random: () => number) => RetryPolicy][] = [
      ['exp', (random) => new ExponentialBackoffRetry(100, 10, undefined, random)],
      ['expMax', (random) => new ExponentialBackoffRetry(100, 10, 1000, random)],
      ['bounded', (random) => new BoundedExponentialBackoffRetry(100, 300, 5, random)],
    ];
    let compared = 0;
    for (const [name, make] of ranges) {
      for (const line of curator(name)) {
        const [, count, min, max] = line.split(' ');
        expect(ourRange(make, Number(count)), `${name} ${line}`).toEqual([Number(min), Number(max)]);
        compared++;
      }
    }
    expect(compared).toBe(7);
  });
});
