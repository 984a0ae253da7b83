import { SigilError, type WireError } from '../../api/errors.js'
import { DatabaseUnavailableError } from '../store/sql.js'

/** HTTP status for an error (A3), with the few transport-level exceptions. */
export function statusOf(e: SigilError): number {
  if (e.code === 'BODY_TOO_LARGE') return 413
  return e.httpStatus
}

/** Any thrown value as a SigilError; unknown errors become INTERNAL with no detail leaked. */
export function asSigilError(e: unknown): SigilError {
  if (e instanceof SigilError) return e
  if (e instanceof DatabaseUnavailableError) {
    // 503 UNAVAILABLE: nothing of the request was applied; the client may retry later.
    return new SigilError('DATABASE_UNAVAILABLE', `database unavailable: ${e.message}`, {
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '5s' }],
      cause: e,
    })
  }
  return new SigilError('INTERNAL', 'internal error', { cause: e })
}

export function wireOf(e: SigilError): WireError {
  return e.toWire()
}
