/**
 * A lock-safe consumer in its own process, for the "nothing lost" tests: the parent SIGKILLs it mid-batch.
 *
 *   tsx consumer-child.ts <connectString> <queuePath> <lockPath> <holdItem> <sessionTimeoutMs>
 *
 * Prints "SESSION <id>" once connected, "ITEM <text>" when an item reaches it, and on <holdItem> prints
 * "HOLD" and never returns from the handler, so the kill lands while that batch is locked and half consumed.
 * Exits when its stdin closes, so it never outlives the test.
 */
import { connect } from '@zkwire/zk-wire-client';
import { DistributedQueue, stringSerializer } from '../../src/index.js';

const [connectString, queuePath, lockPath, holdItem, sessionTimeout] = process.argv.slice(2);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

const client = await connect({ connectString: connectString!, sessionTimeoutMs: Number(sessionTimeout) });
process.stdout.write(`SESSION ${client.sessionId}\n`);
const queue = new DistributedQueue(client, queuePath!, {
  serializer: stringSerializer,
  lockPath: lockPath!,
  onError: () => {},
});
await queue.consume(async (item) => {
  process.stdout.write(`ITEM ${item}\n`);
  if (item === holdItem) {
    process.stdout.write('HOLD\n');
    await new Promise(() => {});
  }
});
