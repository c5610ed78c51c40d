// Test helper: runs a decoder and records what happened, so two decoders can be compared on any input.
import { expect } from 'vitest';
import { JuteCodecError } from '../errors';

/** The value returned, or the JuteCodecError code thrown; any other exception fails the test. */
export type Outcome = { value: unknown } | { code: string };

/** Runs `fn`; a JuteCodecError becomes `{ code }`, anything else thrown is a test failure. */
export function outcome(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch (error) {
    if (!JuteCodecError.isInstance(error)) {
      expect.fail(`expected a JuteCodecError, got ${String(error)}`);
    }
    return { code: error.code };
  }
}
