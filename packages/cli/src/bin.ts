#!/usr/bin/env node
/**
 * The `zkwire` executable: runs the command line with the process's streams and sets the exit code.
 * (No top-level await: the build also emits a CommonJS copy of every entry.)
 */
import { main } from './cli.js';

// `zkwire ls -R / | head`: the reader left, so there is nobody to print for; end quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt(cancel) {
    // A second Ctrl-C while the first is being handled leaves at once: a stuck command must not trap the user.
    let interrupted = false;
    const onSigint = () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      cancel();
    };
    process.on('SIGINT', onSigint);
    return () => process.off('SIGINT', onSigint);
  },
}).then(
  (exitCode) => {
    process.exitCode = exitCode;
  },
  (error: unknown) => {
    // Only a bug gets here: commands report their own errors.
    console.error(error);
    process.exitCode = 1;
  },
);
