/**
 * Errors shared by the service, the relay, the client and the extension.
 *
 * One base class, one stable string `code` per failure (what went wrong, not which
 * operation). The service maps each code to a gRPC code and HTTP status through
 * {@link ERROR_CODES}; the wire body is `{code, message, details}` (wire-formats A3).
 */

/** gRPC status codes used on the wire (wire-formats A3). */
export const GRPC = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const
export type GrpcCode = (typeof GRPC)[keyof typeof GRPC]

/** HTTP status for each gRPC code (wire-formats A3). */
export const HTTP_STATUS_OF_GRPC: Record<GrpcCode, number> = {
  3: 400,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 412,
  13: 500,
  14: 503,
  16: 401,
}

/**
 * Every failure the project can report, with its gRPC code. Add a row here rather
 * than inventing a code at the throw site.
 */
export const ERROR_CODES = {
  // request shape
  INVALID_ARGUMENT: GRPC.INVALID_ARGUMENT,
  INVALID_JSON: GRPC.INVALID_ARGUMENT,
  UNKNOWN_ACTIVITY_TYPE: GRPC.INVALID_ARGUMENT,
  BODY_TOO_LARGE: GRPC.INVALID_ARGUMENT,
  // authentication
  STAMP_MISSING: GRPC.UNAUTHENTICATED,
  STAMP_MALFORMED: GRPC.UNAUTHENTICATED,
  STAMP_SCHEME_UNSUPPORTED: GRPC.UNAUTHENTICATED,
  STAMP_SIGNATURE_INVALID: GRPC.UNAUTHENTICATED,
  STAMP_KEY_UNKNOWN: GRPC.UNAUTHENTICATED,
  STAMP_KEY_EXPIRED: GRPC.UNAUTHENTICATED,
  TIMESTAMP_OUT_OF_WINDOW: GRPC.UNAUTHENTICATED,
  WEBAUTHN_INVALID: GRPC.UNAUTHENTICATED,
  // authorization
  PERMISSION_DENIED: GRPC.PERMISSION_DENIED,
  ORIGIN_NOT_ALLOWED: GRPC.PERMISSION_DENIED,
  // state
  NOT_FOUND: GRPC.NOT_FOUND,
  ALREADY_EXISTS: GRPC.ALREADY_EXISTS,
  FAILED_PRECONDITION: GRPC.FAILED_PRECONDITION,
  VOTE_NOT_ALLOWED: GRPC.FAILED_PRECONDITION,
  // otp
  OTP_INVALID: GRPC.INVALID_ARGUMENT,
  OTP_EXPIRED: GRPC.FAILED_PRECONDITION,
  OTP_RATE_LIMITED: GRPC.RESOURCE_EXHAUSTED,
  RATE_LIMITED: GRPC.RESOURCE_EXHAUSTED,
  // crypto
  BUNDLE_INVALID: GRPC.INVALID_ARGUMENT,
  TOKEN_INVALID: GRPC.UNAUTHENTICATED,
  // transport and bugs
  NETWORK: GRPC.INTERNAL,
  BAD_RESPONSE: GRPC.INTERNAL,
  INTERNAL: GRPC.INTERNAL,
  /** The database is unreachable for now (503): retry; resubmitting the same signed body is idempotent. */
  UNAVAILABLE: GRPC.UNAVAILABLE,
  // storage: the database cannot write its data dir (disk full, read-only); retry later
  DATABASE_UNAVAILABLE: GRPC.UNAVAILABLE,
} as const satisfies Record<string, GrpcCode>
export type SigilErrorCode = keyof typeof ERROR_CODES

/** One `google.rpc.BadRequest` field violation. */
export type FieldViolation = { field: string; description: string }

/** A wire error detail: any object carrying an `@type`. */
export type WireErrorDetail = { '@type': string; [k: string]: unknown }

/** The wire error body of every non-2xx response (wire-formats A3). */
export type WireError = { code: number; message: string; details: WireErrorDetail[] }

export type SigilErrorOptions = {
  /** Field paths this error is about, e.g. `parameters.expirationSeconds`. */
  fieldViolations?: FieldViolation[]
  /** Extra wire details (never secrets). */
  details?: WireErrorDetail[]
  cause?: unknown
}

/** Base error. `message` must never contain keys, bundles, OTPs or stamps. */
export class SigilError extends Error {
  override name = 'SigilError'
  readonly code: SigilErrorCode
  readonly fieldViolations: FieldViolation[]
  readonly details: WireErrorDetail[]

  constructor(code: SigilErrorCode, message: string, options: SigilErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    this.fieldViolations = options.fieldViolations ?? []
    this.details = options.details ?? []
  }

  get grpcCode(): GrpcCode {
    return ERROR_CODES[this.code]
  }

  get httpStatus(): number {
    return HTTP_STATUS_OF_GRPC[this.grpcCode]
  }

  /** The wire body (A3): gRPC code, message, BadRequest detail when fields are named. */
  toWire(): WireError {
    const details: WireErrorDetail[] = [{ '@type': 'type.googleapis.com/sigil.ErrorInfo', reason: this.code }]
    if (this.fieldViolations.length > 0) {
      details.push({
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: this.fieldViolations,
      })
    }
    details.push(...this.details)
    return { code: this.grpcCode, message: this.message, details }
  }
}

/** An error naming one field: message `field: description` and one field violation (wire-formats A3). */
export function fieldError(code: SigilErrorCode, field: string, description: string): SigilError {
  return new SigilError(code, `${field}: ${description}`, { fieldViolations: [{ field, description }] })
}

/** Shorthand for an INVALID_ARGUMENT error naming one field. */
export function invalidField(field: string, description: string): SigilError {
  return fieldError('INVALID_ARGUMENT', field, description)
}

/**
 * Thrown by the typed client when the service answers non-2xx: carries the wire
 * error `{code, message, details}` and the HTTP status.
 */
export class SigilRequestError extends Error {
  override name = 'SigilRequestError'
  readonly status: number
  readonly code: number
  readonly details: WireErrorDetail[]

  constructor(status: number, wire: WireError) {
    super(wire.message)
    this.status = status
    this.code = wire.code
    this.details = wire.details
  }

  /** The stable Sigil code when the service sent one (our own service does). */
  get reason(): string | undefined {
    for (const d of this.details) {
      if (d['@type'] === 'type.googleapis.com/sigil.ErrorInfo' && typeof d.reason === 'string') return d.reason
    }
    return undefined
  }
}
