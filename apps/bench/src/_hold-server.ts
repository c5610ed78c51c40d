import { writeFileSync } from 'node:fs';
import { openServer } from './bench-server.js';
import { createFixtures } from './fixtures.js';

const server = await openServer({ pin: true });
const paths = await createFixtures(server.connectString, `prof${Date.now()}`, 100);
writeFileSync(
  '/tmp/prof/base.json',
  JSON.stringify({ connectString: server.connectString, paths, prefix: server.clientPrefix }),
);
console.log('ready', server.connectString, server.pinning);
process.on('SIGTERM', async () => {
  await server.stop();
  process.exit(0);
});
setInterval(() => {}, 1 << 30);
