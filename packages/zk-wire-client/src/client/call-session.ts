/**
 * What the client's calls use of their session ({@link ClientCore} and the call files): the pipeline they
 * take their place in, the chroot and watch tables their replies settle against, whether the session can
 * take a call, and its state events. The session (session/session.ts) is one; naming only this keeps the
 * calls' plumbing below the session's own files.
 */
import type { EventEmitter } from 'node:events';
import type { RequestPipeline } from '../pipeline/pipeline.js';
import type { ReplyContext } from '../protocol/reply-decoder.js';
import type { SessionEventMap } from '../session/states.js';
import type { ZooKeeperError } from '../util/errors.js';
import type { ACL } from '../util/types.js';

/** The session as the calls see it. */
export interface CallSession extends ReplyContext, Pick<EventEmitter<SessionEventMap>, 'on' | 'off'> {
  readonly pipeline: RequestPipeline;
  /** The ACL of creates that name none; undefined means open. */
  readonly defaultAcl: ACL[] | undefined;
  /** True while a connection is ready for requests. */
  readonly isReady: boolean;
  /** The error a call should fail with right now (closed, expired, ...), or undefined when it may be queued. */
  refusal(operation?: string, path?: string): ZooKeeperError | undefined;
}
