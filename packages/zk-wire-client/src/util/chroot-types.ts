/**
 * What the protocol's decoders and the watch keys use of a chroot (util/paths.ts `Chroot`), declared here with
 * no imports so that the declarations every decoder stands on (protocol/reply-decoder.ts) sit one floor above
 * util's leaves rather than above paths.ts and its errors.
 */
export interface ChrootMapping {
  /** The server path of the client's `/`, or '' for no chroot. */
  readonly prefix: string;
  /** Client path to server path. */
  toServer(path: string): string;
  /** Server path to client path; paths outside the chroot come back unchanged. */
  toClient(serverPath: string): string;
  /** Why a NONODE answer can only mean the chroot itself is missing, in words; else undefined. */
  missingDetail(operation: string, path: string | undefined): string | undefined;
}
