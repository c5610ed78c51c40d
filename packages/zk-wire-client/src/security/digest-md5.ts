/**
 * SASL DIGEST-MD5 client (RFC 2831), authentication only (qop=auth), as ZooKeeper's DigestLoginModule servers
 * speak it. Pure: tokens in, tokens out, no I/O, so the exchange is unit-tested against RFC 2831's example and
 * against the JDK's own SASL server (security-setup.md §5).
 *
 *   C: (empty token)
 *   S: realm="zk-sasl-md5",nonce="…",qop="auth",charset=utf-8,algorithm=md5-sess
 *   C: charset=utf-8,username="bob",realm="zk-sasl-md5",nonce="…",nc=00000001,cnonce="…",
 *      digest-uri="zookeeper/zk-sasl-md5",response=<32 hex>,qop=auth
 *   S: rspauth=<32 hex>                       (or err -115 AUTHFAILED and the connection is closed)
 */
import { Buffer } from 'node:buffer';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DIGEST_MD5, DigestSyntaxError, formatDirectives, parseDirectives } from './digest-directives.js';
import { SaslAuthenticationError, SaslFailure, type SaslFailureReason } from './sasl-error.js';

/** Who authenticates, and against which service principal. */
export interface DigestMd5Credentials {
  username: string;
  password: string;
  /** Authorization id to act as (`authzid`); default none (the user acts as itself). */
  authzid?: string | undefined;
  /** Service part of `digest-uri`; default `zookeeper`. */
  serviceName?: string | undefined;
  /**
   * Host part of `digest-uri`; default `zk-sasl-md5`, the fixed name ZooKeeper's Java client uses and its server
   * requires for DIGEST-MD5 (a real host name is refused with "Mismatched URI").
   */
  hostname?: string | undefined;
}

/** Test seam: where the client nonce comes from (default 18 random bytes, base64). */
export interface DigestMd5Options {
  cnonce?: () => string;
}

/** RFC 2831 §2.1: a challenge is at most 2048 bytes, and the rspauth message is far shorter. */
const MAX_TOKEN_LENGTH = 2048;
const NC = '00000001';

const md5 = (data: Buffer | string): Buffer => createHash('md5').update(data).digest();
const md5Hex = (data: Buffer | string): string => md5(data).toString('hex');

function fail(reason: SaslFailureReason, detail: string): never {
  throw new SaslAuthenticationError(DIGEST_MD5, reason, detail);
}

/*
 * RFC 2831 §2.1.2.1: with charset=utf-8, strings that fit ISO 8859-1 are still hashed as ISO 8859-1, others as
 * UTF-8 (the JDK's server does the same). Without charset=utf-8 everything must be ISO 8859-1.
 */
function hashBytes(value: string, utf8: boolean): Buffer {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the whole of ISO 8859-1
  if (/^[\u0000-\u00ff]*$/.test(value)) return Buffer.from(value, 'latin1');
  if (!utf8)
    fail(SaslFailure.UNSUPPORTED, 'the server does not accept UTF-8 and a credential is not ISO 8859-1');
  return Buffer.from(value, 'utf8');
}

function single(directives: Map<string, string[]>, name: string): string | undefined {
  const values = directives.get(name);
  if (values && values.length > 1)
    fail(SaslFailure.BAD_CHALLENGE, `directive "${name}" appears more than once`);
  return values?.[0];
}

function decodeToken(token: Uint8Array | null, what: string): Map<string, string[]> {
  if (token === null || token.length === 0) {
    fail(SaslFailure.NOT_CONFIGURED, `the server sent no ${what} (is SASL configured on it?)`);
  }
  if (token.length > MAX_TOKEN_LENGTH)
    fail(SaslFailure.BAD_CHALLENGE, `${what} longer than ${MAX_TOKEN_LENGTH} bytes`);
  try {
    return parseDirectives(Buffer.from(token).toString('utf8'));
  } catch (error) {
    if (error instanceof DigestSyntaxError)
      fail(SaslFailure.BAD_CHALLENGE, `malformed ${what}: ${error.message}`);
    throw error;
  }
}

/**
 * One DIGEST-MD5 authentication, as a state machine: {@link initialResponse}, then {@link evaluateChallenge}
 * for each server token until {@link complete}. Errors are {@link SaslAuthenticationError}s whose messages
 * carry no credentials. A new instance is needed for every connection.
 */
export class DigestMd5Client {
  private step: 'initial' | 'challenge' | 'rspauth' | 'done' = 'initial';
  private expectedRspauth = '';
  private readonly credentials: DigestMd5Credentials;
  private readonly makeCnonce: () => string;

  constructor(credentials: DigestMd5Credentials, options: DigestMd5Options = {}) {
    // A copy, so a caller changing its options object mid-exchange cannot change what is sent.
    this.credentials = { ...credentials };
    this.makeCnonce = options.cnonce ?? (() => randomBytes(18).toString('base64'));
  }

  /** True once the server has proven that it knows the password (rspauth verified). */
  get complete(): boolean {
    return this.step === 'done';
  }

  /** The first client token: empty (the server speaks first in DIGEST-MD5; ZooKeeper requires a 0-length, not null, buffer). */
  initialResponse(): Uint8Array {
    if (this.step !== 'initial') throw new Error('DigestMd5Client: initialResponse() called twice');
    this.step = 'challenge';
    return new Uint8Array(0);
  }

  /**
   * Answers a server token: the digest-challenge gives the digest-response; the response-auth (`rspauth`)
   * is verified and gives an empty token, after which {@link complete} is true and nothing more is sent.
   */
  evaluateChallenge(token: Uint8Array | null): Uint8Array {
    if (this.step === 'initial') this.initialResponse();
    if (this.step === 'challenge') return this.respond(decodeToken(token, 'digest-challenge'));
    if (this.step === 'rspauth') {
      this.verify(decodeToken(token, 'response-auth'));
      return new Uint8Array(0);
    }
    return fail(SaslFailure.BAD_CHALLENGE, 'the server sent a token after the exchange had completed');
  }

  private respond(challenge: Map<string, string[]>): Uint8Array {
    const nonce = single(challenge, 'nonce');
    if (!nonce) fail(SaslFailure.BAD_CHALLENGE, 'digest-challenge has no nonce');
    const algorithm = single(challenge, 'algorithm');
    if (algorithm?.toLowerCase() !== 'md5-sess') {
      fail(SaslFailure.UNSUPPORTED, `digest-challenge algorithm must be md5-sess, got "${algorithm ?? ''}"`);
    }
    const qops = (single(challenge, 'qop') ?? 'auth').split(',').map((qop) => qop.trim().toLowerCase());
    if (!qops.includes('auth'))
      fail(SaslFailure.UNSUPPORTED, `the server offers qop "${qops.join(',')}" but not auth`);
    const charset = single(challenge, 'charset');
    if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
      fail(SaslFailure.BAD_CHALLENGE, `digest-challenge charset must be utf-8, got "${charset}"`);
    }
    const utf8 = charset !== undefined;
    // Several realms may be offered; like the JDK client, take the first. None means the empty realm.
    const realm = challenge.get('realm')?.[0];
    const { username, password, authzid } = this.credentials;
    const digestUri = `${this.credentials.serviceName ?? 'zookeeper'}/${this.credentials.hostname ?? 'zk-sasl-md5'}`;
    const cnonce = this.makeCnonce();

    const userHash = md5(
      Buffer.concat([
        hashBytes(username, utf8),
        Buffer.from(':'),
        hashBytes(realm ?? '', utf8),
        Buffer.from(':'),
        hashBytes(password, utf8),
      ]),
    );
    const a1Tail = `:${nonce}:${cnonce}${authzid ? `:${authzid}` : ''}`;
    const ha1 = md5Hex(Buffer.concat([userHash, Buffer.from(a1Tail, 'utf8')]));
    const kd = (a2: string) => md5Hex(`${ha1}:${nonce}:${NC}:${cnonce}:auth:${md5Hex(a2)}`);
    this.expectedRspauth = kd(`:${digestUri}`);

    const entries: [string, string, boolean][] = [];
    if (utf8) entries.push(['charset', 'utf-8', false]);
    entries.push(['username', username, true]);
    if (realm !== undefined) entries.push(['realm', realm, true]);
    entries.push(
      ['nonce', nonce, true],
      ['nc', NC, false],
      ['cnonce', cnonce, true],
      ['digest-uri', digestUri, true],
      ['maxbuf', '65536', false],
      ['response', kd(`AUTHENTICATE:${digestUri}`), false],
      ['qop', 'auth', false],
    );
    if (authzid) entries.push(['authzid', authzid, true]);
    this.step = 'rspauth';
    return Buffer.from(formatDirectives(entries), 'utf8');
  }

  private verify(responseAuth: Map<string, string[]>): void {
    const rspauth = single(responseAuth, 'rspauth');
    if (rspauth === undefined) fail(SaslFailure.BAD_CHALLENGE, 'response-auth has no rspauth');
    const expected = Buffer.from(this.expectedRspauth, 'latin1');
    const actual = Buffer.from(rspauth.toLowerCase(), 'latin1');
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
      fail(
        SaslFailure.SERVER_NOT_VERIFIED,
        'the server could not prove that it knows the password (rspauth mismatch)',
      );
    }
    this.step = 'done';
  }
}
