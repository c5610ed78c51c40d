/** github.com/go-zookeeper/zk, the client of most Go infrastructure (src/go/main.go), built on first use. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareBuiltDriver } from './built-driver.js';
import { type Contender, clientKinds } from './contender.js';

const sourceDir = fileURLToPath(new URL('../go/', import.meta.url));

export const go: Contender = {
  id: 'go',
  label: 'Go client (go-zookeeper/zk)',
  short: 'go',
  color: '#00add8',
  supports: clientKinds,
  prepare: async (log) => {
    const version = /go-zookeeper\/zk (v\S+)/.exec(readFileSync(`${sourceDir}/go.mod`, 'utf8'))?.[1] ?? '?';
    const detail = `github.com/go-zookeeper/zk ${version}, a goroutine per request in flight, one process per cell`;
    return prepareBuiltDriver(
      {
        name: 'go',
        sourceDir,
        sources: ['main.go', 'go.mod', 'go.sum'],
        tools: ['go', '/usr/local/go/bin/go'],
      },
      () => ({ args: ['build', '-o', 'driver', '.'], output: 'driver' }),
      detail,
      log,
    );
  },
};
