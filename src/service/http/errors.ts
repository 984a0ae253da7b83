/**
 * The one error responder of the service and the relay (wire-formats A3): any thrown value becomes a
 * {@link SigilError} and its wire body, with the status of the one error table (`src/api/errors.ts`).
 */
import type { Context } from 'hono'
import { SigilError } from '../../api/errors.js'
import { DatabaseUnavailableError } from '../store/sql.js'

/** Any thrown value as a SigilError; unknown errors become INTERNAL with no detail leaked. */
export function asSigilError(e: unknown): SigilError {
  if (e instanceof SigilError) return e
  if (e instanceof DatabaseUnavailableError) {
    // 503 UNAVAILABLE: nothing of the request was applied; the client may retry later.
    return new SigilError('UNAVAILABLE', `database unavailable: ${e.message}`, {
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '5s' }],
      cause: e,
    })
  }
  return new SigilError('INTERNAL', 'internal error', { cause: e })
}

/**
 * The wire error response for anything thrown. A {@link SigilRequestError} (an upstream service's
 * answer, seen by the relay) keeps its status and body.
 */
export function errorResponse(c: Context, e: unknown) {
  const err = asSigilError(e)
  return c.json(err.toWire(), err.httpStatus as 400)
}
