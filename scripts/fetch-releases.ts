/*
 * Fetches the ZooKeeper and Curator releases the tests and the bench use into the cache outside the repository
 * (~/.cache/zkwire, or ZKWIRE_CACHE_DIR), so that a test run never waits on Maven and a release that cannot be
 * had fails here, at once, with its name and Maven's output. Already cached releases cost nothing.
 *   npx tsx scripts/fetch-releases.ts            the default server (3.9.5), Curator 5.9.0 and Debian's 5.4.0
 *   npx tsx scripts/fetch-releases.ts --matrix   and every server of the version matrix
 */
import { DEFAULT_CURATOR_VERSION, findCurator, findZooKeeper, MATRIX_VERSIONS } from '@zkwire/testing';

const servers = process.argv.includes('--matrix') ? [...MATRIX_VERSIONS] : [undefined];
try {
  for (const version of servers) {
    const release = findZooKeeper(version);
    console.log(
      `fetch-releases: ZooKeeper ${release.version} (${release.source}), ${release.classpath.length} jars`,
    );
  }
  const curator = findCurator({
    version: DEFAULT_CURATOR_VERSION,
    modules: ['curator-x-discovery', 'curator-x-async'],
  });
  findCurator({ version: DEFAULT_CURATOR_VERSION });
  findCurator({ version: DEFAULT_CURATOR_VERSION, modules: ['curator-x-discovery'] });
  findCurator({ version: DEFAULT_CURATOR_VERSION, modules: ['curator-x-async'] });
  console.log(`fetch-releases: Curator ${curator.version}, ${curator.classpath.length} jars`);
} catch (error) {
  console.error(`fetch-releases: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
