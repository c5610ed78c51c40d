/*
 * The secure launcher serves the official Java client: TLS with a PKCS#12 keystore and a JKS truststore (made by
 * keytool), x509 identity, and SASL DIGEST-MD5 from a JAAS Client section. One server for the whole file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledJava, compileJava } from '../../src/java.js';
import {
  jaasClientConfig,
  type SecureZooKeeperServer,
  secureJavaClientClasspath,
  startSecureZooKeeper,
} from '../../src/secure/index.js';

const SOURCE = `
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ClientInfo;

/** Connects, waits for the outcome the test expects (args[1]: SyncConnected or SaslAuthenticated), prints whoAmI. */
public class SecureCheck {
  public static void main(String[] args) throws Exception {
    KeeperState wanted = KeeperState.valueOf(args[1]);
    CountDownLatch done = new CountDownLatch(1);
    String[] outcome = { "timeout" };
    ZooKeeper zk = new ZooKeeper(args[0], 10000, event -> {
      KeeperState state = event.getState();
      if (state == wanted || state == KeeperState.AuthFailed) {
        outcome[0] = state.toString();
        done.countDown();
      }
    });
    done.await(20, TimeUnit.SECONDS);
    System.out.println("outcome " + outcome[0]);
    if (outcome[0].equals(wanted.toString())) {
      for (ClientInfo info : zk.whoAmI()) System.out.println("id " + info.getAuthScheme() + ":" + info.getUser());
    }
    zk.close();
  }
}
`;

let server: SecureZooKeeperServer;
let java: CompiledJava;

beforeAll(async () => {
  [server, java] = await Promise.all([
    startSecureZooKeeper({ saslUsers: { bob: 'java-secret' } }),
    compileJava({ sources: { 'SecureCheck.java': SOURCE }, classpath: secureJavaClientClasspath() }),
  ]);
});

afterAll(async () => {
  await server?.close();
});

function tlsFlags(): string[] {
  const certs = server.certificates!;
  return [
    '-Dzookeeper.client.secure=true',
    '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty',
    `-Dzookeeper.ssl.keyStore.location=${certs.client.p12File}`,
    `-Dzookeeper.ssl.keyStore.password=${certs.password}`,
    `-Dzookeeper.ssl.trustStore.location=${certs.truststoreJksFile}`,
    `-Dzookeeper.ssl.trustStore.password=${certs.password}`,
  ];
}

/*
 * The JAAS Client section, and (3.9+ Java clients) FIPS mode off: in FIPS mode, the default from 3.9 on
 * (ZOOKEEPER-4393), the Java client will not use DIGEST-MD5 and never authenticates.
 */
async function jaas(password: string): Promise<string[]> {
  const file = join(server.dir, `jaas-client-${password}.conf`);
  await writeFile(file, jaasClientConfig('bob', password));
  return [`-Djava.security.auth.login.config=${file}`, '-Dzookeeper.fips-mode=false'];
}

describe('secure launcher with the Java client', () => {
  it('serves TLS with the keytool truststore, naming the client by its certificate', async () => {
    const result = await java.exec('SecureCheck', [server.secureConnectString, 'SyncConnected'], {
      jvmFlags: tlsFlags(),
    });
    expect(result.stdout).toContain('outcome SyncConnected');
    expect(result.stdout).toContain(`id x509:${server.certificates!.clientX509Id}`);
  });

  it('authenticates SASL DIGEST-MD5 from a JAAS Client section over TLS', async () => {
    const result = await java.exec('SecureCheck', [server.secureConnectString, 'SaslAuthenticated'], {
      jvmFlags: [...tlsFlags(), ...(await jaas('java-secret'))],
    });
    expect(result.stdout, result.stderr).toContain('outcome SaslAuthenticated');
    expect(result.stdout).toContain('id sasl:bob');
    expect(result.stdout).toContain(`id x509:${server.certificates!.clientX509Id}`);
  });

  it('refuses a wrong SASL password (AuthFailed)', async () => {
    const result = await java.exec('SecureCheck', [server.connectString, 'SaslAuthenticated'], {
      jvmFlags: await jaas('not-the-password'),
    });
    expect(result.stdout).toContain('outcome AuthFailed');
  });
});
