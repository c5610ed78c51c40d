#!/usr/bin/env node
/**
 * The `zkwire` executable: runs the command line with the process's streams and sets the exit code.
 */
import { main } from './cli.js';

const exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt(cancel) {
    // A second Ctrl-C while the first is being handled leaves at once, as a stuck command must not trap the user.
    let interrupted = false;
    const onSigint = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      cancel();
    };
    process.on('SIGINT', onSigint);
    return () => process.off('SIGINT', onSigint);
  },
});
process.exitCode = exitCode;
