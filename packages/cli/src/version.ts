/** The version of this package, from its package.json (inlined by the build, so it holds in any bundle). */
import { version } from '../package.json';

export const CLI_VERSION: string = version;
