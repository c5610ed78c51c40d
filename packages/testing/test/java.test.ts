import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileJava,
  findCurator,
  findZooKeeper,
  JavaCompileError,
  startZooKeeper,
  type ZooKeeperServer,
} from '../src/index.js';

const ECHO = `
public class Echo {
  public static void main(String[] args) throws Exception {
    System.out.println("args=" + String.join(",", args));
    System.err.println("to stderr");
    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
    String line = args.length > 0 && args[0].equals("stdin") ? in.readLine() : null;
    if (line != null) System.out.println("read=" + line);
    System.exit(args.length > 0 && args[0].equals("fail") ? 3 : 0);
  }
}`;

// Reads a node through the official Java client: proves the compiled classpath reaches the server jars.
const GET_DATA = `
package probe;
import org.apache.zookeeper.ZooKeeper;
import java.util.concurrent.CountDownLatch;
public class GetData {
  public static void main(String[] args) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(args[0], 10000, event -> connected.countDown());
    connected.await();
    System.out.println("children=" + zk.getChildren("/", false));
    zk.close();
  }
}`;

describe('compileJava', () => {
  it('compiles and runs a program, with its output and exit code', async () => {
    const java = await compileJava({ sources: { 'Echo.java': ECHO }, classpath: [] });
    expect(java.classpath[0]).toBe(java.dir);
    const ok = await java.exec('Echo', ['a', 'b']);
    expect(ok).toEqual({ stdout: 'args=a,b\n', stderr: 'to stderr\n', code: 0 });
    expect((await java.exec('Echo', ['fail'])).code).toBe(3);

    const child = java.run('Echo', ['stdin']);
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stdin?.end('hello\n');
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
    expect(stdout).toContain('read=hello');
  });

  it('reports javac errors', async () => {
    await expect(
      compileJava({ sources: { 'Broken.java': 'public class Broken { int x = ; }' }, classpath: [] }),
    ).rejects.toThrow(JavaCompileError);
  });

  it('finds Curator 5.9.0 from Maven with the 3.9.5 ZooKeeper client', () => {
    const curator = findCurator();
    expect(curator.version).toBe('5.9.0');
    expect(curator.classpath.some((jar) => jar.endsWith('curator-recipes-5.9.0.jar'))).toBe(true);
    expect(curator.classpath.some((jar) => jar.endsWith('zookeeper-3.9.5.jar'))).toBe(true);
  });

  it("finds Debian's Curator 5.4.0 with Debian's ZooKeeper and curator-x-discovery", () => {
    const curator = findCurator({ version: 'debian', modules: ['curator-x-discovery'] });
    expect(curator.version).toBe('5.4.0');
    expect(curator.classpath).toEqual(
      expect.arrayContaining([
        '/usr/share/java/curator-recipes.jar',
        '/usr/share/java/curator-x-discovery.jar',
        ...findZooKeeper('debian').classpath,
      ]),
    );
  });
});

describe('compileJava against ZooKeeper', () => {
  let zk: ZooKeeperServer;
  beforeAll(async () => {
    zk = await startZooKeeper();
  });
  afterAll(async () => {
    await zk?.[Symbol.asyncDispose]();
  });

  it('runs a Java ZooKeeper client against a real server', async () => {
    const java = await compileJava({
      sources: { 'probe/GetData.java': GET_DATA },
      classpath: findZooKeeper().classpath,
    });
    const result = await java.exec('probe.GetData', [zk.connectString]);
    expect(result.stderr).not.toMatch(/Exception in thread/);
    expect(result.stdout).toContain('children=[zookeeper]');
    expect(result.code).toBe(0);
  });
});
