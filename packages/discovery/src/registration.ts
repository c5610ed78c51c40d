/**
 * One registered instance, kept present on the server: created as Curator's ServiceDiscoveryImpl does (an
 * existing node is deleted and created again, "so that watchers fire"), watched so that a deletion by someone
 * else brings it back, and checked again after every reconnect and every new session. Operations on one
 * registration run one at a time (Curator synchronizes on the entry).
 */
import { Deadline } from './deadline.js';
import { type ServiceInstance, ServiceType } from './service-instance.js';
import {
  type DiscoveryClient,
  type DiscoveryWatcher,
  isClientClosed,
  isNodeExists,
  isNoNode,
  isNoWatcher,
  isSessionExpired,
} from './zk-client.js';

/** What a registration needs from its ServiceDiscovery. */
export interface RegistrationHost {
  readonly client: DiscoveryClient;
  /** `<basePath>/<name>/<id>`. */
  pathForInstance(name: string, id: string): string;
  bytesOf(instance: ServiceInstance): Uint8Array;
  /** The instance in a node's bytes, as the discovery reads them. */
  deserialize(bytes: Uint8Array, path: string): ServiceInstance;
  /** A failure of background work (a re-registration), for the `error` event. */
  report(error: unknown): void;
  /** Adopt edits of our node made by others (Curator's `watchInstances`). */
  readonly watchInstances: boolean;
}

const MAX_CREATE_TRIES = 2;

const modeOf = (type: ServiceType) =>
  type === ServiceType.DYNAMIC
    ? 'ephemeral'
    : type === ServiceType.DYNAMIC_SEQUENTIAL
      ? 'ephemeral-sequential'
      : 'persistent';

/** A locally registered instance and the node that holds it. */
export class Registration {
  #instance: ServiceInstance;
  /** The node we made: `<base>/<name>/<id>`, or that plus 10 digits for DYNAMIC_SEQUENTIAL. */
  #nodePath: string | undefined;
  #active = true;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #host: RegistrationHost;
  readonly #watcher: DiscoveryWatcher = (event) => this.#onWatch(event.type);

  constructor(host: RegistrationHost, instance: ServiceInstance) {
    this.#host = host;
    this.#instance = instance;
  }

  get instance(): ServiceInstance {
    return this.#instance;
  }

  /** The node holding the instance, once created. */
  get nodePath(): string | undefined {
    return this.#nodePath;
  }

  /** Runs `task` after every earlier operation of this registration. */
  #serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** Creates the node (deleting one already there first); resolves once it exists and is watched. */
  register(deadline: Deadline): Promise<void> {
    return this.#serialize(() => this.#create(deadline));
  }

  /** Registers a new version of the instance: its node is deleted and created again, as Curator does. */
  replace(instance: ServiceInstance, deadline: Deadline): Promise<void> {
    return this.#serialize(() => {
      this.#instance = instance;
      return this.#create(deadline);
    });
  }

  /** Replaces the instance and writes it (no version: Curator's setData); NoNode is thrown, as Curator's. */
  update(instance: ServiceInstance, deadline: Deadline): Promise<void> {
    return this.#serialize(async () => {
      this.#instance = instance;
      const path = this.#nodePath ?? this.#host.pathForInstance(instance.name, instance.id);
      await this.#host.client.setData(path, this.#host.bytesOf(instance), deadline.toOptions());
    });
  }

  /**
   * Checks the node after a reconnect or a new session: recreated when missing or left by another session;
   * left alone when it is ours (Curator deletes and recreates it after every reconnect; see the README).
   */
  ensure(deadline: Deadline): Promise<void> {
    return this.#serialize(async () => {
      if (!this.#active) return;
      if (!(await this.#isOursAndWatched(deadline))) await this.#create(deadline);
    });
  }

  /** Stops keeping the node and deletes it (NoNode ignored). */
  unregister(deadline: Deadline): Promise<void> {
    this.#active = false;
    return this.#serialize(async () => {
      const path = this.#nodePath ?? this.#host.pathForInstance(this.#instance.name, this.#instance.id);
      const ephemeral = modeOf(this.#instance.serviceType) !== 'persistent';
      try {
        // The deletion also fires (and so clears) our exists watch on the server.
        await this.#host.client.delete(path, deadline.toOptions());
      } catch (error) {
        // An ephemeral node dies with its session: a closed client or an expired session leaves nothing.
        const gone = isNoNode(error) || (ephemeral && (isClientClosed(error) || isSessionExpired(error)));
        if (!gone) {
          await this.#dropWatch(path);
          throw error;
        }
      }
      await this.#dropWatch(path);
    });
  }

  /**
   * Removes our exists watcher if it is still armed (a failed delete): from the server when connected, locally
   * otherwise. After a successful delete it has fired already, and this finds nothing.
   */
  async #dropWatch(path: string): Promise<void> {
    try {
      await this.#host.client.removeWatches(path, 'data', { watcher: this.#watcher, local: true });
    } catch (error) {
      if (!isNoWatcher(error) && !isClientClosed(error)) throw error;
    }
  }

  async #create(deadline: Deadline): Promise<void> {
    const { client } = this.#host;
    const instance = this.#instance;
    const path = this.#host.pathForInstance(instance.name, instance.id);
    const mode = modeOf(instance.serviceType);
    if (mode === 'ephemeral-sequential' && this.#nodePath !== undefined) {
      // Our node of an earlier session (or one deleted meanwhile): never leave a second one behind.
      await client.delete(this.#nodePath, deadline.toOptions()).catch((error: unknown) => {
        if (!isNoNode(error)) throw error;
      });
    }
    for (let attempt = 1; attempt <= MAX_CREATE_TRIES; attempt++) {
      try {
        this.#nodePath = await client.create(path, this.#host.bytesOf(instance), {
          ...deadline.toOptions(),
          mode,
          createParents: 'container',
        });
        break;
      } catch (error) {
        if (!isNodeExists(error) || attempt === MAX_CREATE_TRIES) throw error;
        await client.delete(path, deadline.toOptions()).catch((deleteError: unknown) => {
          if (!isNoNode(deleteError)) throw deleteError;
        });
      }
    }
    // A deletion between the create and this read is seen here: create once more.
    if (!(await this.#isOursAndWatched(deadline)) && this.#active) await this.#create(deadline);
  }

  /** Arms the exists watch; true when the node is there and, for ephemeral types, held by our session. */
  async #isOursAndWatched(deadline: Deadline): Promise<boolean> {
    const path = this.#nodePath;
    if (path === undefined) return false;
    const stat = await this.#host.client.exists(path, { ...deadline.toOptions(), watch: this.#watcher });
    if (stat === null) return false;
    const ephemeral = modeOf(this.#instance.serviceType) !== 'persistent';
    return !ephemeral || stat.ephemeralOwner === this.#host.client.sessionId;
  }

  #onWatch(type: string): void {
    // sessionExpired: the discovery re-registers on the new session; *WatchRemoved: we removed it.
    if (!this.#active || (type !== 'deleted' && type !== 'dataChanged' && type !== 'created')) return;
    // Unbounded: a background repair, ended by the next connection loss at worst (then retried on reconnect).
    const repair =
      type === 'dataChanged' && this.#host.watchInstances ? this.#adoptEdit() : this.ensure(Deadline.NONE);
    repair.catch((error: unknown) => this.#host.report(error));
  }

  /**
   * Curator's `watchInstances`: reads our node after someone changed it and keeps what it now says as our
   * instance, so the edit (an operator setting `"enabled":false`, say) survives the next re-registration. Our
   * own writes come back the same way and change nothing. A node that is not an instance is reported and ignored.
   */
  #adoptEdit(): Promise<void> {
    return this.#serialize(async () => {
      const path = this.#nodePath;
      if (!this.#active || path === undefined) return;
      let data: Uint8Array;
      try {
        ({ data } = await this.#host.client.getData(path, { watch: this.#watcher }));
      } catch (error) {
        if (!isNoNode(error)) throw error;
        if (this.#active && !(await this.#isOursAndWatched(Deadline.NONE))) await this.#create(Deadline.NONE);
        return;
      }
      const edited = this.#host.deserialize(data, path);
      if (this.#active && edited.id === this.#instance.id && edited.name === this.#instance.name) {
        this.#instance = edited;
      }
    });
  }
}
