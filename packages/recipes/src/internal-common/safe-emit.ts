/** The recipes' {@link CommonReporter} (see @zkwire/common's safe-emit.ts): log lines begin `zookeeper recipes`. */
import type { EventEmitter } from 'node:events';
import { Reporter as CommonReporter, type WarnLogger } from '@zkwire/common';

export { WarningCode, type WarnLogger } from '@zkwire/common';

/** Reports the errors of one object (recipe, cache); `emit` calls its listeners safely. */
export class Reporter<Events extends Record<keyof Events, unknown[]>> extends CommonReporter<Events> {
  constructor(
    emitter: EventEmitter<Events> | EventEmitter | undefined,
    client: { readonly logger?: WarnLogger | undefined } | undefined,
    source: string,
  ) {
    super(emitter, client, source, 'zookeeper recipes');
  }
}
