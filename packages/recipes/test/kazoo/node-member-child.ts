/**
 * A Node SetPartitioner member in its own process, speaking partition-member.py's protocol, so the interop
 * tests can SIGKILL a Node member as they do a kazoo one:
 *
 *   tsx node-member-child.ts HOSTS PATH IDENTIFIER TIME_BOUNDARY_S SESSION_TIMEOUT_S ITEM...
 *
 * Prints JSON lines: joined (with its session id in hex), acquired (its share), release, failed, finished.
 * "finish" on stdin, or stdin closing, finishes and exits, so it never outlives the test.
 */
import { connect } from '@zkwire/zk-wire-client';
import { SetPartitioner } from '../../src/partitioner/set-partitioner.js';

const [hosts, path, identifier, timeBoundaryS, sessionTimeoutS, ...items] = process.argv.slice(2);
const say = (fields: object) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const client = await connect({
  connectString: hosts as string,
  sessionTimeoutMs: Number(sessionTimeoutS) * 1_000,
});
const partitioner = new SetPartitioner(client, path as string, {
  items,
  identifier: identifier as string,
  timeBoundaryMs: Number(timeBoundaryS) * 1_000,
});
partitioner.on('state', (state) => {
  if (state === 'acquired') say({ event: 'acquired', items: [...partitioner.items].sort() });
  else if (state === 'release') {
    say({ event: 'release' });
    void partitioner.releaseSet();
  } else if (state === 'failure') say({ event: 'failed' });
});
await partitioner.start();
say({ event: 'joined', identifier, session: client.sessionId.toString(16) });

let finishing = false;
const finish = async () => {
  if (finishing) return;
  finishing = true;
  await partitioner.finish();
  say({ event: 'finished' });
  await client.close();
  process.exit(0);
};
process.stdin.on('data', (chunk) => {
  if (chunk.toString().includes('finish')) void finish();
});
process.stdin.on('end', () => void finish());
process.stdin.resume();
