/**
 * Every server error code's name and number, checked against the Java client's KeeperException.Code enum
 * of the ZooKeeper install the tests use: util/errors.ts promises the Java names (THROTTLEDOP, not
 * THROTTLED).
 */
import { compileJava, findZooKeeper } from '@zkwire/testing';
import { describe, expect, it } from 'vitest';
import { ErrorCode, errorInfo } from '../src/index.js';

const PRINT_CODES = `
import org.apache.zookeeper.KeeperException;
public class PrintCodes {
  public static void main(String[] args) {
    for (KeeperException.Code code : KeeperException.Code.values()) {
      System.out.println(code.intValue() + " " + code.name());
    }
  }
}
`;

describe('error codes match the Java client', () => {
  it('names every code the server can send as KeeperException.Code does', async () => {
    const compiled = await compileJava({
      sources: { 'PrintCodes.java': PRINT_CODES },
      classpath: findZooKeeper().classpath,
    });
    const result = await compiled.exec('PrintCodes');
    expect(result.code).toBe(0);
    const javaCodes = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.trim().split(' '))
      .map(([errno, name]) => ({ errno: Number(errno), name: name! }));
    // Sanity: the enum was read (OK, NONODE and the throttle code are in every 3.7+ release).
    expect(javaCodes.map((c) => c.name)).toEqual(expect.arrayContaining(['OK', 'NONODE', 'THROTTLEDOP']));
    for (const { errno, name } of javaCodes) {
      if (errno === 0) continue;
      // Our table names the code as Java does (UNKNOWN would mean the code is missing from the table).
      expect({ errno, code: errorInfo(errno).code }).toEqual({ errno, code: name });
    }
    // And every named constant we export is Java's name for that number.
    const javaByName = new Map(javaCodes.map((c) => [c.name, c.errno]));
    for (const [name, errno] of Object.entries(ErrorCode)) {
      expect({ name, errno: javaByName.get(name) }).toEqual({ name, errno });
    }
  });
});
