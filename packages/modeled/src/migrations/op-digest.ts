/**
 * The SHA-256 of a migration's operations, computed as curator-x-async's `MigrationManager.hash` does, so
 * that a migration applied from Java is recognised here and the reverse. For each op, in order, the digest
 * takes: the op's path (UTF-8), its ZooKeeper op code as decimal text, and the text of its jute request
 * record as the Java record's `toString()` writes it (jute's `ToStringOutputArchive`: strings prefixed with
 * `'` and `%`-escaped, buffers as `#` and `Integer.toHexString` of each signed byte, vectors `v{...}`,
 * nested records `s{...}`, a newline at the end). Java's `getBytes()` uses the JVM's default charset:
 * UTF-8 on Java 18+ (and with `-Dfile.encoding=UTF-8`); on older JVMs in a non-UTF-8 locale, paths and
 * data outside ASCII hash differently there.
 */
import { createHash } from 'node:crypto';
import { type ACL, acls, type CreateMode, type Op } from '@zkwire/zk-wire-client';

/** ZooKeeper's op codes (`ZooDefs.OpCode`). */
const OP_CODE = { create: 1, delete: 2, setData: 5, check: 13, createContainer: 19, createTTL: 21 } as const;

/** `CreateMode.toFlag()`. */
const CREATE_FLAGS: Record<CreateMode, number> = {
  persistent: 0,
  ephemeral: 1,
  'persistent-sequential': 2,
  'ephemeral-sequential': 3,
  container: 4,
  'persistent-ttl': 5,
  'persistent-sequential-ttl': 6,
};

const encoder = new TextEncoder();

/** jute's `ToStringOutputArchive.escapeString`. */
function javaString(text: string): string {
  let out = "'";
  for (const c of text) {
    if (c === '\0') out += '%00';
    else if (c === '\n') out += '%0A';
    else if (c === '\r') out += '%0D';
    else if (c === ',') out += '%2C';
    else if (c === '}') out += '%7D';
    else if (c === '%') out += '%25';
    else out += c;
  }
  return out;
}

/** jute's `ToStringOutputArchive.escapeBuffer`: `#` and each byte as Java's `Integer.toHexString(byte)`. */
function javaBuffer(data: Uint8Array | null): string {
  if (data === null || data.length === 0) return '';
  let out = '#';
  // A Java byte is signed: -1 widens to the int 0xffffffff.
  for (const byte of data) out += (byte < 0x80 ? byte : (0xffffff00 | byte) >>> 0).toString(16);
  return out;
}

function javaAcl(list: readonly ACL[]): string {
  return `v{${list.map((entry) => `s{${entry.perms},s{${javaString(entry.id.scheme)},${javaString(entry.id.id)}}}`).join(',')}}`;
}

function bytesOf(data: Uint8Array | string | null | undefined): Uint8Array | null {
  if (data === null || data === undefined) return null;
  return typeof data === 'string' ? encoder.encode(data) : data;
}

/** The op code and record text of one op, as Java's `Op.getType()` and `op.toRequestRecord().toString()`. */
export function javaRecordOf(item: Op): { type: number; record: string } {
  const path = javaString(item.path);
  switch (item.type) {
    case 'create': {
      const fields = `${path},${javaBuffer(bytesOf(item.data))},${javaAcl(item.acl ?? acls.open())},${CREATE_FLAGS[item.mode]}`;
      if (item.mode === 'persistent-ttl' || item.mode === 'persistent-sequential-ttl') {
        return { type: OP_CODE.createTTL, record: `${fields},${String(item.ttlMs ?? -1)}\n` };
      }
      return {
        type: item.mode === 'container' ? OP_CODE.createContainer : OP_CODE.create,
        record: `${fields}\n`,
      };
    }
    case 'delete':
      return { type: OP_CODE.delete, record: `${path},${item.version}\n` };
    case 'setData':
      return { type: OP_CODE.setData, record: `${path},${javaBuffer(bytesOf(item.data))},${item.version}\n` };
    case 'check':
      return { type: OP_CODE.check, record: `${path},${item.version}\n` };
  }
}

/**
 * The 32-byte SHA-256 of a migration's ops (curator-x-async's `MigrationManager.hash`). An op without an
 * ACL is hashed with the open ACL, as Curator's default ACLProvider gives it; give ops their ACL explicitly
 * when the client's `defaultAcl` is another.
 */
export function operationsHash(ops: readonly Op[]): Uint8Array {
  const digest = createHash('sha256');
  for (const item of ops) {
    const { type, record } = javaRecordOf(item);
    digest.update(item.path, 'utf8');
    digest.update(String(type), 'utf8');
    digest.update(record, 'utf8');
  }
  return new Uint8Array(digest.digest());
}
