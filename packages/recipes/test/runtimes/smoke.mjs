// One script, run unchanged by Node, Bun and Deno against a real server (runtimes.test.ts): connect, a
// watch, a mutex, 200 pipelined calls. It imports the built packages as a user would and prints one JSON
// line with what it saw.

import { InterProcessMutex } from '@zkwire/recipes';
import { connect } from '@zkwire/zk-wire-client';

const connectString = process.env.ZK_CONNECT;
const base = process.env.ZK_BASE;
const runtime = typeof Bun !== 'undefined' ? 'bun' : typeof Deno !== 'undefined' ? 'deno' : 'node';

const zk = await connect({ connectString, sessionTimeoutMs: 10_000 });
try {
  await zk.create(base);
  const events = [];
  const watched = new Promise((resolve) => {
    zk.getData(base, {
      watch: (event) => {
        events.push(`${event.type} ${event.path}`);
        resolve();
      },
    });
  });
  await zk.setData(base, runtime);
  await watched;

  const mutex = new InterProcessMutex(zk, `${base}/lock`);
  const acquired = await mutex.acquire({ timeoutMs: 5_000 });
  const fencingToken = mutex.fencingToken;
  await mutex.release();

  const created = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      zk.create(`${base}/n-`, String(i), { mode: 'persistent-sequential' }),
    ),
  );
  const inOrder = created.every((path, i) => i === 0 || path > created[i - 1]);
  const children = (await zk.getChildren(base)).filter((name) => name.startsWith('n-')).length;
  const { data } = await zk.getData(base);

  console.log(
    JSON.stringify({
      runtime,
      events,
      acquired,
      fencingToken,
      created: created.length,
      inOrder,
      children,
      data: data.toString(),
    }),
  );
} finally {
  await zk.close();
}
