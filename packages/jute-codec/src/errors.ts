/**
 * Stable codes of {@link JuteCodecError}.
 * - `TRUNCATED`: the bytes end before a field does.
 * - `NEGATIVE_LENGTH`: a length or count below -1 (or any negative frame length).
 * - `LENGTH_PAST_END`: a length or count that reaches beyond the available bytes.
 * - `FRAME_TOO_LARGE`: a frame length above the reader's cap.
 * - `INVALID_VALUE`: a value to encode does not fit its jute type (or a field is missing).
 * - `TRAILING_BYTES`: bytes left over after a record that should fill the whole buffer.
 */
export const JuteCodecErrorCode = {
  TRUNCATED: 'TRUNCATED',
  NEGATIVE_LENGTH: 'NEGATIVE_LENGTH',
  LENGTH_PAST_END: 'LENGTH_PAST_END',
  FRAME_TOO_LARGE: 'FRAME_TOO_LARGE',
  INVALID_VALUE: 'INVALID_VALUE',
  TRAILING_BYTES: 'TRAILING_BYTES',
} as const;

/** One of the {@link JuteCodecErrorCode} values. */
export type JuteCodecErrorCode = (typeof JuteCodecErrorCode)[keyof typeof JuteCodecErrorCode];

// instanceof fails between the ESM and CJS copies of this package; the registered symbol does not.
const marker = Symbol.for('@zkwire/jute-codec/JuteCodecError');

/** Raised for malformed input bytes and for values that cannot be encoded. */
export class JuteCodecError extends Error {
  /** Stable machine-readable code. */
  readonly code: JuteCodecErrorCode;
  /** Byte offset in the source where decoding failed, when known. */
  readonly offset: number | undefined;

  constructor(
    code: JuteCodecErrorCode,
    message: string,
    options?: { offset?: number | undefined; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'JuteCodecError';
    this.code = code;
    this.offset = options?.offset;
  }

  /** True for a JuteCodecError from any copy (ESM or CJS) of this package. */
  static isInstance(error: unknown): error is JuteCodecError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** @internal marks instances for {@link JuteCodecError.isInstance}. */
  get [marker](): true {
    return true;
  }
}
