/**
 * A bounded queue's put waits while the queue node has `maxItems` children or more (Curator's maxItems):
 * a Stat read when there is room, a watched listing only while full. Like Curator's, the bound is only
 * eventually consistent: producers racing for the last slot may all get in.
 */
import { waitFor } from './abortable.js';
import { QueueError, QueueErrorCode } from './errors.js';
import { retryTransient } from './retry.js';
import type { QueueClient } from './zk-client.js';

/** Resolves once the queue has room; rejects with `QUEUE_FULL` when `timeoutMs` passes first. */
export async function waitForRoom(
  client: QueueClient,
  queuePath: string,
  maxItems: number,
  options: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined },
): Promise<void> {
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  const stat = await retryTransient(client, () => client.exists(queuePath), { signal: options.signal });
  if (stat === null || stat.numChildren < maxItems) return;
  for (;;) {
    let wake: (() => void) | undefined;
    let changed = false;
    const children = await retryTransient(
      client,
      () =>
        client.getChildren(queuePath, {
          watch: () => {
            changed = true;
            wake?.();
          },
        }),
      { signal: options.signal },
    );
    if (children.length < maxItems) return;
    const remaining = deadline === undefined ? undefined : deadline - Date.now();
    const woke =
      changed ||
      (remaining === undefined || remaining > 0
        ? await waitFor(
            (w) => {
              wake = w;
              return () => {
                wake = undefined;
              };
            },
            { timeoutMs: remaining, signal: options.signal },
          )
        : false);
    if (!woke) {
      throw new QueueError(
        QueueErrorCode.QUEUE_FULL,
        `${queuePath} still held ${children.length} items (maxItems ${maxItems}) after ${options.timeoutMs} ms`,
        { path: queuePath },
      );
    }
  }
}
