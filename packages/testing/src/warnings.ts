/**
 * Recording the process warnings (`process.emitWarning`) a test causes, such as the ones the zkwire packages
 * emit for errors nobody listens to. Like the fixtures, it takes no test framework's hooks:
 *
 *   const warnings = recordWarnings();
 *   afterEach(warnings.clear);
 *   // ... in a test:
 *   await warnings.delivered();
 *   expect(warnings.withCode('ZKWIRE_LISTENER_ERROR')).toHaveLength(1);
 */
import { eventually } from './eventually.js';

/** A process warning, with the code it was emitted with (when it had one). */
export type ProcessWarning = Error & { code?: string };

/** The warnings recorded by {@link recordWarnings}. */
export interface WarningRecorder {
  /** Every warning recorded since the last {@link clear}, in the order they were delivered. */
  readonly all: readonly ProcessWarning[];
  /** The recorded warnings emitted with `code`. */
  withCode(code: string): ProcessWarning[];
  /**
   * Resolves once every warning emitted before the call has been recorded: Node delivers warnings on a later
   * tick in the order they were emitted, so it emits a marker of its own (code `TEST_MARKER`) and waits for it.
   */
  delivered(): Promise<void>;
  /** Forgets what was recorded (an `afterEach` callback: bound, takes no arguments). */
  clear(): void;
  /** Stops recording (bound). */
  stop(): void;
}

/** Records every process warning from now on, until `stop()`. */
export function recordWarnings(): WarningRecorder {
  const all: ProcessWarning[] = [];
  const onWarning = (warning: ProcessWarning) => all.push(warning);
  process.on('warning', onWarning);
  return {
    all,
    withCode: (code) => all.filter((warning) => warning.code === code),
    async delivered() {
      const marker = `marker ${Math.random()}`;
      process.emitWarning(marker, { code: 'TEST_MARKER' });
      await eventually(() => all.some((warning) => warning.message === marker), 'the marker warning');
    },
    clear() {
      all.length = 0;
    },
    stop() {
      process.off('warning', onWarning);
    },
  };
}
