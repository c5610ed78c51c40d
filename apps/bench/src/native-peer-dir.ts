import { fileURLToPath } from 'node:url';

/**
 * Where the native `zookeeper` package is installed at bench time: a throwaway npm project of its own
 * (gitignored), so that approving its install script never touches the workspace's lockfile.
 */
export const nativePeerDir = fileURLToPath(new URL('../.peers/native', import.meta.url));
