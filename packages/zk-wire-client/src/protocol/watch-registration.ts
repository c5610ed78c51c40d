/**
 * Which watch a reply arms, declared on its decoder (Java's WatchRegistration, applied in finishPacket):
 * the pipeline enters the request's watcher (its context) in the session's watch tables in the settle
 * step, after the reply decoded and right before the call's promise resolves, so that a decoder only turns
 * bytes into a value and a watcher is in place before anything that follows the reply runs.
 */
import type { Watcher } from '../util/types.js';
import { configWatchKey } from './config-watch.js';
import type { AddWatchContext, ReplyContext, WatchRegistration } from './reply-decoder.js';
import type { WatchTables } from './watches.js';

/** Enters a settled request's watcher in the tables, as its decoder declared. */
export function registerWatch(
  context: ReplyContext & { readonly watches: WatchTables },
  registration: WatchRegistration,
  path: string,
  requestContext: unknown,
  err: number,
): void {
  const watches = context.watches;
  switch (registration) {
    case 'data':
      watches.add('data', path, requestContext as Watcher);
      return;
    case 'exists':
      watches.add(err === 0 ? 'data' : 'exist', path, requestContext as Watcher);
      return;
    case 'child':
      watches.add('child', path, requestContext as Watcher);
      return;
    case 'config':
      watches.add('data', configWatchKey(context.chroot), requestContext as Watcher);
      return;
    case 'persistent': {
      const { watcher, mode } = requestContext as AddWatchContext;
      watches.add(mode === 'persistent' ? 'persistent' : 'persistentRecursive', path, watcher);
      return;
    }
  }
}
