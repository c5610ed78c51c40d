/**
 * The `zookeeper-client` crate (async, requests ordered at call time; src/rust) on tokio's single-threaded
 * runtime, built with `cargo build --release --locked` on first use; compiled dependencies stay in the cache.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareBuiltDriver } from './built-driver.js';
import { type Contender, clientKinds } from './contender.js';

const sourceDir = fileURLToPath(new URL('../rust/', import.meta.url));

export const rust: Contender = {
  id: 'rust',
  label: 'Rust client (zookeeper-client)',
  short: 'rust',
  color: '#ce422b',
  supports: clientKinds,
  prepare: async (log) =>
    prepareBuiltDriver(
      {
        ...{ name: 'rust', sourceDir, sources: ['Cargo.toml', 'Cargo.lock', 'src/main.rs'] },
        tools: ['cargo', join(homedir(), '.cargo/bin/cargo')],
      },
      (cache) => ({
        args: ['build', '--release', '--locked'],
        env: { CARGO_TARGET_DIR: join(cache, 'target') },
        output: join('..', 'target', 'release', 'driver'),
      }),
      'zookeeper-client 0.11 (crates.io) on tokio, a task per request in flight, one process per cell',
      log,
    ),
};
