/**
 * InterProcessReadWriteLock (curator/locks.md §4): readers share, writers exclude, fair. A writer waits on
 * its immediate predecessor, reader or writer; a reader waits on the first writer before it. Downgrade works
 * as in Curator 5.5+: the holder of the write lock takes the read lock with an EPHEMERAL node named
 * `__READ__<write sequence>` that sorts where the write node does, then releases the write lock, so no writer
 * queued in between can overtake it. Upgrade (read held, write asked) is refused with LockUpgradeError,
 * where Curator would wait forever.
 */
import { nodeDataOf } from '../internal-common/default-data.js';
import { LockUpgradeError } from '../internal-common/recipe-errors.js';
import { sequenceTextOf } from '../internal-common/sequence-sort.js';
import { validateRecipePath } from '../internal-common/validate.js';
import type { RecipeClient } from '../internal-common/zk-client.js';
import { standardPredicate } from './lock-internals.js';
import {
  READ_LOCK_NAME,
  READ_WRITE_SORT_NAMES,
  readLockPredicate,
  WRITE_LOCK_NAME,
} from './read-write-predicates.js';
import { type NodeLockOptions, ReentrantNodeLock } from './reentrant-node-lock.js';

/** Options of an InterProcessReadWriteLock. */
export interface InterProcessReadWriteLockOptions extends NodeLockOptions {
  /** Data of both halves' nodes (Curator's `lockData`); default: the local address. */
  lockData?: Uint8Array | string;
}

class WriteHalf extends ReentrantNodeLock {
  readHalf: ReentrantNodeLock | undefined;

  protected override beforeAcquire(): void {
    if (this.readHalf?.isAcquiredInThisProcess() && !this.isAcquiredInThisProcess()) {
      throw new LockUpgradeError(this.basePath);
    }
  }
}

/** A fair read-write lock across processes, compatible with Curator's InterProcessReadWriteLock. */
export class InterProcessReadWriteLock implements AsyncDisposable {
  readonly #write: WriteHalf;
  readonly #read: ReentrantNodeLock;

  /**
   * @param client a connected `@zkwire/zk-wire-client` client
   * @param path the lock path shared by readers and writers
   */
  constructor(client: RecipeClient, path: string, options: InterProcessReadWriteLockOptions = {}) {
    const basePath = validateRecipePath(path);
    const nodeData = () => nodeDataOf(options.lockData);
    const write = new WriteHalf(
      client,
      {
        basePath,
        sortNames: READ_WRITE_SORT_NAMES,
        nodeToCreate: () => ({ name: WRITE_LOCK_NAME, mode: 'ephemeral-sequential' }),
        nodeData,
        predicate: standardPredicate(1),
      },
      options,
    );
    const ownsWriteLock = () => write.isAcquiredInThisProcess();
    this.#read = new ReentrantNodeLock(
      client,
      {
        basePath,
        sortNames: READ_WRITE_SORT_NAMES,
        nodeToCreate: () => {
          const writeSequence = write.lockNodePath && sequenceTextOf(write.lockNodePath);
          // Curator 5.5+ (CURATOR-621): a downgrading reader takes the write node's place in the order.
          return writeSequence !== undefined
            ? { name: `${READ_LOCK_NAME}${writeSequence}`, mode: 'ephemeral' }
            : { name: READ_LOCK_NAME, mode: 'ephemeral-sequential' };
        },
        nodeData,
        predicate: readLockPredicate(ownsWriteLock),
      },
      options,
    );
    write.readHalf = this.#read;
    this.#write = write;
  }

  /** The read half: shared with other readers, excluded by writers. */
  readLock(): ReentrantNodeLock {
    return this.#read;
  }

  /** The write half: exclusive. Throws LockUpgradeError when asked while only the read half is held. */
  writeLock(): ReentrantNodeLock {
    return this.#write;
  }

  /** Releases every hold of both halves. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#write[Symbol.asyncDispose]();
    await this.#read[Symbol.asyncDispose]();
  }
}
