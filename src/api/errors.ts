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

/** One row of the error table: the gRPC number, and the HTTP status when it is not the gRPC code's own. */
type ErrorRow = { readonly grpc: GrpcCode; readonly http?: number }

/**
 * The one error table: every failure the project can report, by its stable string code, with its
 * gRPC number and (only where the transport needs another) its HTTP status. Add a row here rather
 * than inventing a code at the throw site.
 */
export const ERROR_TABLE = {
  // request shape
  INVALID_ARGUMENT: { grpc: GRPC.INVALID_ARGUMENT },
  INVALID_JSON: { grpc: GRPC.INVALID_ARGUMENT },
  UNKNOWN_ACTIVITY_TYPE: { grpc: GRPC.INVALID_ARGUMENT },
  BODY_TOO_LARGE: { grpc: GRPC.INVALID_ARGUMENT, http: 413 },
  UNSUPPORTED_MEDIA_TYPE: { grpc: GRPC.INVALID_ARGUMENT, http: 415 },
  // authentication
  UNAUTHENTICATED: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_MISSING: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_MALFORMED: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_SCHEME_UNSUPPORTED: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_SIGNATURE_INVALID: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_KEY_UNKNOWN: { grpc: GRPC.UNAUTHENTICATED },
  STAMP_KEY_EXPIRED: { grpc: GRPC.UNAUTHENTICATED },
  TIMESTAMP_OUT_OF_WINDOW: { grpc: GRPC.UNAUTHENTICATED },
  WEBAUTHN_INVALID: { grpc: GRPC.UNAUTHENTICATED },
  // authorization
  PERMISSION_DENIED: { grpc: GRPC.PERMISSION_DENIED },
  ORIGIN_NOT_ALLOWED: { grpc: GRPC.PERMISSION_DENIED },
  /** The organization's policies deny the activity (explicit deny, or a policy too costly to evaluate). */
  POLICY_DENIED: { grpc: GRPC.PERMISSION_DENIED },
  /** The organization's IP allow-list does not cover the address the request comes from (src/service/http/ipAllowlist.ts). */
  IP_NOT_ALLOWED: { grpc: GRPC.PERMISSION_DENIED },
  /** The session's profile scope (create_session_profile) does not allow the activity, or could not be evaluated on it. */
  SESSION_SCOPE_DENIED: { grpc: GRPC.PERMISSION_DENIED },
  // state
  NOT_FOUND: { grpc: GRPC.NOT_FOUND },
  ALREADY_EXISTS: { grpc: GRPC.ALREADY_EXISTS },
  FAILED_PRECONDITION: { grpc: GRPC.FAILED_PRECONDITION },
  VOTE_NOT_ALLOWED: { grpc: GRPC.FAILED_PRECONDITION },
  // otp
  OTP_INVALID: { grpc: GRPC.INVALID_ARGUMENT },
  OTP_EXPIRED: { grpc: GRPC.FAILED_PRECONDITION },
  OTP_RATE_LIMITED: { grpc: GRPC.RESOURCE_EXHAUSTED },
  RATE_LIMITED: { grpc: GRPC.RESOURCE_EXHAUSTED },
  /** A budget of the organization is used up for now (gas sponsorship: the window's USD limit). */
  RESOURCE_EXHAUSTED: { grpc: GRPC.RESOURCE_EXHAUSTED },
  /** A velocity control (create_velocity_control) would be exceeded: the message names it and what remains of its window. */
  VELOCITY_LIMIT_EXCEEDED: { grpc: GRPC.RESOURCE_EXHAUSTED },
  // crypto
  BUNDLE_INVALID: { grpc: GRPC.INVALID_ARGUMENT },
  TOKEN_INVALID: { grpc: GRPC.UNAUTHENTICATED },
  // transport and bugs
  NETWORK: { grpc: GRPC.INTERNAL },
  BAD_RESPONSE: { grpc: GRPC.INTERNAL },
  INTERNAL: { grpc: GRPC.INTERNAL },
  /**
   * The service cannot serve the request for now (503): its database is unreachable, or cannot write
   * its storage (disk full, read-only). Nothing of the request was applied; retry later (resubmitting
   * the same signed body is idempotent).
   */
  UNAVAILABLE: { grpc: GRPC.UNAVAILABLE },
} as const satisfies Record<string, ErrorRow>
export type SigilErrorCode = keyof typeof ERROR_TABLE

/** True when `code` is one of the table's stable codes. */
export function isSigilErrorCode(code: unknown): code is SigilErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_TABLE, code)
}

/** The stable code that stands for a bare gRPC number (an error from a service that sends no Sigil code). */
const CODE_OF_GRPC: Record<GrpcCode, SigilErrorCode> = {
  3: 'INVALID_ARGUMENT',
  5: 'NOT_FOUND',
  6: 'ALREADY_EXISTS',
  7: 'PERMISSION_DENIED',
  8: 'RATE_LIMITED',
  9: 'FAILED_PRECONDITION',
  13: 'INTERNAL',
  14: 'UNAVAILABLE',
  16: 'UNAUTHENTICATED',
}

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

  /** The gRPC number of the wire body (A3). */
  get grpcCode(): GrpcCode {
    return ERROR_TABLE[this.code].grpc
  }

  /** The HTTP status of the response: the gRPC code's, unless the table overrides it (413, 415). */
  get httpStatus(): number {
    const row: ErrorRow = ERROR_TABLE[this.code]
    return row.http ?? HTTP_STATUS_OF_GRPC[row.grpc]
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
export function fieldError(
  code: SigilErrorCode,
  field: string,
  description: string,
  options: Omit<SigilErrorOptions, 'fieldViolations'> = {},
): SigilError {
  return new SigilError(code, `${field}: ${description}`, { ...options, fieldViolations: [{ field, description }] })
}

/** Shorthand for an INVALID_ARGUMENT error naming one field. */
export function invalidField(field: string, description: string): SigilError {
  return fieldError('INVALID_ARGUMENT', field, description)
}

/**
 * A service's non-2xx answer, as the typed client, the relay and the extension see it: one of the
 * {@link SigilError} family. `code` is the stable code the service sent (Sigil sends it in a
 * `sigil.ErrorInfo` detail) or, from a service that sends none, the one that stands for its gRPC
 * number; `grpcCode`, `httpStatus` and {@link toWire} give back exactly what was received.
 */
export class SigilRequestError extends SigilError {
  override name = 'SigilRequestError'
  /** The HTTP status of the response. */
  readonly status: number
  readonly #wire: WireError

  constructor(status: number, wire: WireError) {
    super(codeOfWire(wire), wire.message, { details: wire.details })
    this.status = status
    this.#wire = { code: wire.code, message: wire.message, details: wire.details }
  }

  override get grpcCode(): GrpcCode {
    return this.#wire.code as GrpcCode
  }

  override get httpStatus(): number {
    return this.status
  }

  /** The wire body as received (a relay passes it through unchanged). */
  override toWire(): WireError {
    return this.#wire
  }
}

function codeOfWire(wire: WireError): SigilErrorCode {
  for (const d of wire.details) {
    if (d['@type'] === 'type.googleapis.com/sigil.ErrorInfo' && isSigilErrorCode(d.reason)) return d.reason
  }
  return CODE_OF_GRPC[wire.code as GrpcCode] ?? 'INTERNAL'
}
