/**
 * A full collection from inside a test: the flag is set at run time, so no test process needs `--expose-gc`
 * on its command line.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** Runs a full garbage collection. */
export const collectGarbage = runInNewContext('gc') as () => void;
